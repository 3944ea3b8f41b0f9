import { describe, expect, it } from 'vitest';
import { plainMessage } from '../../../src/ingest/langfuse/langchain.js';
import { auditCorpus, countRun, findingList } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'langfuse';
const kinds = (records: ReadonlyArray<{ kind: string; loc: { line: number }; callId?: string | null }>) => records.map((r) => [r.kind, r.loc.line, r.callId ?? null]);

// Counts and lines computed from the files with a few lines of python (observation
// starts in the top-level `observations` list, tool calls in generation outputs).
describeCorpus('langfuse: tools that ran as SPAN observations (corpus)', corpusFilesUnder(dir), () => {
  it('Koog: calls in the generation message content, results from gen_ai.tool spans, in their end order', async () => {
    const { result, runs } = await auditCorpus([`${dir}/koog.trace.json`]);
    expect(runs.map(countRun)).toEqual([{ runId: 'dff173a675b759ce1b70e522b27d6846', llm: 2, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: [] }]);
    // HelloTool's span (line 777) ended at .034, ByeTool's (line 734) at .037; both before the second generation (line 638) began.
    expect(kinds(runs[0]!.records)).toEqual([
      ['llm', 906, null],
      ['tool_call', 906, 'call_n2HaWg9KFP0BZDqXv6G4b3nJ'],
      ['tool_call', 906, 'call_dOeEHJDI0liHrCdFWTpkTsuO'],
      ['tool_result', 777, 'call_n2HaWg9KFP0BZDqXv6G4b3nJ'],
      ['tool_result', 734, 'call_dOeEHJDI0liHrCdFWTpkTsuO'],
      ['llm', 638, null],
    ]);
    expect(runs[0]!.results.map((r) => r.content)).toEqual(['Hello my darling Bob!', 'Bye my dear Bob!']);
    // Koog records no tool definitions: catalog-missing is true. No late-result, no continued-while-outstanding.
    expect(findingList(result).map(([rule]) => rule)).toEqual(['catalog-missing']);
  });

  it('Agno: an OpenInference TOOL span with tool.name is the execution, paired by order (no call id) with a note', async () => {
    const { result, runs } = await auditCorpus([`${dir}/agno.trace.json`]);
    expect(runs.map(countRun)).toEqual([
      { runId: '080130871f53145aecf7c29d5dfb6e4c', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['duckduckgo_news', 'duckduckgo_search'] },
    ]);
    expect(kinds(runs[0]!.records)).toEqual([
      ['catalog', 594, null],
      ['llm', 594, null],
      ['tool_call', 594, 'call_VybxG748CQId8Xxo6wb2pWy1'],
      ['tool_result', 489, 'call_VybxG748CQId8Xxo6wb2pWy1'],
      ['llm', 376, null],
    ]);
    expect(findingList(result)).toEqual([
      ['ingest-note', 489, '080130871f53145aecf7c29d5dfb6e4c', 'call_VybxG748CQId8Xxo6wb2pWy1', "tool observation 'duckduckgo_search' has no call id; paired by order with the model's call 'call_VybxG748CQId8Xxo6wb2pWy1'"],
      ['unused-tool', 594, '080130871f53145aecf7c29d5dfb6e4c', null, "tool 'duckduckgo_news' is in the catalog but the run never called it (1 call to other tools)"],
    ]);
  });

  it('LangGraph JS: the tool span whose output is a serialized LangChain ToolMessage answers the call (no false orphan)', async () => {
    const { result, runs } = await auditCorpus([`${dir}/langgraph-js.trace.json`]);
    expect(runs.map(countRun)).toEqual([{ runId: '2c1581dd9cecdafb6ca091b83d7ea99a', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] }]);
    expect(kinds(runs[0]!.records)).toEqual([
      ['llm', 1216, null],
      ['tool_call', 1216, 'call_VEZJgIQLgzcb80IIyQJm7JCi'],
      ['tool_result', 1574, 'call_VEZJgIQLgzcb80IIyQJm7JCi'],
      ['llm', 944, null],
    ]);
    expect(runs[0]!.results[0]!.content).toBe("It's always sunny in San Francisco!");
    expect(findingList(result).map(([rule]) => rule)).toEqual(['catalog-missing']);
  });

  it('BeeAI: a tool run recorded as start/finish/success events is one call and its result; a tool known only from the agent updates too', async () => {
    const { result, runs } = await auditCorpus([`${dir}/beeai.trace.json`]);
    // python3 over the top-level observations list: Wikipedia ran as tool.search.wikipedia.start-12 (line 1625,
    // 13:56:55.683) / finish-12 / success-12 (line 2644, 13:56:57.468) under agent.react.update-13 (tool.name
    // "Wikipedia"); OpenMeteoTool has no tool events: agent.react.update-17 (line 1496, 13:57:03.579) is the first
    // update with its parameters, agent.react.partial_update-318 (line 2283, 13:57:03.885) the first with its output.
    expect(runs.map(countRun)).toEqual([{ runId: '096fc09a30ab90d2431778f9ee2b3936', llm: 5, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: ['OpenMeteoTool', 'Wikipedia'] }]);
    // The catalog is agent.react.start-4's llm.tools (line 1582); starts 5 and 6 repeat the same two tools.
    expect(runs[0]!.records.map((r) => [r.kind, r.loc.line, r.ts])).toEqual([
      ['catalog', 1582, Date.parse('2025-08-01T13:56:54.166Z')],
      ['llm', 2498, Date.parse('2025-08-01T13:56:54.170Z')],
      ['tool_call', 1625, Date.parse('2025-08-01T13:56:55.683Z')],
      ['tool_result', 2644, Date.parse('2025-08-01T13:56:57.468Z')],
      ['llm', 1668, Date.parse('2025-08-01T13:56:57.475Z')],
      ['tool_call', 1496, Date.parse('2025-08-01T13:57:03.579Z')],
      ['tool_result', 2283, Date.parse('2025-08-01T13:57:03.885Z')],
      ['llm', 2180, Date.parse('2025-08-01T13:57:03.889Z')],
      ['llm', 2126, Date.parse('2025-08-01T13:57:11.328Z')],
      ['llm', 1771, Date.parse('2025-08-01T13:57:11.330Z')],
    ]);
    expect(runs[0]!.calls.map((c) => [c.tool, c.args, c.callId])).toEqual([
      ['Wikipedia', { query: 'Tourism in Barcelona', full_text: false }, null],
      ['OpenMeteoTool', { location_name: 'Barcelona', country: 'Spain' }, null],
    ]);
    expect(runs[0]!.results.map((r) => JSON.stringify(r.content).slice(0, 20))).toEqual(['[{"description":"Bar', '{"latitude":41.4375,']);
    expect(findingList(result)).toEqual([
      ['ingest-note', 1625, '096fc09a30ab90d2431778f9ee2b3936', null, 'BeeAI records no call ids: 2 tool run(s) read from its emitter events and agent updates, each call paired with its own result'],
    ]);
    // 29 observations: 5 generations and 7 read as the two tool runs; the other 17 repeat the conversation.
    expect(result.files[0]!.skipped).toEqual([{ reason: 'SPAN observation with nothing new', count: 17, firstLine: 1367 }]);
  });
});

describe('langfuse: LangChain messages', () => {
  it('a serialized constructor becomes its kwargs with the class type; other values pass through', () => {
    const tool = plainMessage({ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'ToolMessage'], kwargs: { tool_call_id: 'c1', content: 'ok', status: 'error' } });
    expect({ ...(tool as object) }).toEqual({ tool_call_id: 'c1', content: 'ok', status: 'error', type: 'tool' });
    const hostile = plainMessage({ lc: 1, type: 'constructor', id: ['x', 'AIMessage'], kwargs: { __proto__: { polluted: 1 }, content: '' } }) as Record<string, unknown>;
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(hostile['type']).toBe('ai');
    expect(plainMessage({ lc: 1, type: 'constructor', id: ['x', 'Unknown'], kwargs: {} })).toEqual({ lc: 1, type: 'constructor', id: ['x', 'Unknown'], kwargs: {} });
    expect(plainMessage({ role: 'assistant', content: '[{"not":"a call"}]' })).toEqual({ role: 'assistant', content: '[{"not":"a call"}]' });
  });
});
