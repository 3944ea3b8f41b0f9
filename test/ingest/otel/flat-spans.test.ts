import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFile, corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'otel-spans';
const unpaired = (span: string, tool: string) => `tool span '${span}' for '${tool}' has no call id and no model span's tool call to pair it with by order; its call and result stay without an id`;

// Counts read with python3: tool spans = span.type "agentic.tool.invocation"; llm = spans of
// span.type inference / inference.* with no such span above them; lines = the line of each
// tool span's "span_id".
describeCorpus('otel-spans: corpus span dumps (Monocle, span.to_json())', corpusFilesUnder(dir), () => {
  it('reads the three dumps: each tool span a call and its result, one run per trace id', async () => {
    const names = ['monocle-adk-trace', 'monocle-langgraph-trace', 'monocle-strands-trace'];
    const { result, runs } = await auditCorpus(names.map((n) => `${dir}/${n}.json`));
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['otel-spans', 1, 6],
      ['otel-spans', 1, 21],
      ['otel-spans', 1, 4],
    ]);
    // python3: every item of the three lists has a name and a context with span_id and trace_id (14, 51 and 6 spans).
    expect(result.files.map((f) => f.skipped)).toEqual([[], [], []]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'e41d9435ad8b01f220bdca188d0867ec', llm: 4, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: 'd0f75d77caca795afe46ccdd382339c2', llm: 11, calls: 5, results: 5, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: 'cc777ffa12c2506f3e07fa56d160bfe9', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
    ]);
    expect(runs[1]!.calls.map((c) => [c.loc.line, c.tool, c.args])).toEqual([
      [366, 'okahu-demo-lg-tool_book_flight', ['SFO', 'BOM']],
      [559, 'okahu-demo-lg-tool_book_flight', ['SFO', 'BOM']],
      [1176, 'okahu-demo-lg-tool_book_hotel', ['Weather Update: Next Week in Mumbai']],
      [1232, 'okahu-demo-lg-tool_book_hotel', ['Marriott Central Mumbai']],
      [1916, 'demo_get_weather', ['Mumbai']],
    ]);
    expect(runs[2]!.results[0]!.content).toBe("[{'home_team': 'Hornets', 'home_score': 116, 'away_team': 'Clippers', 'away_score': 131}]");
    expect(findingList(result)).toEqual([
      ['catalog-missing', 223, 'e41d9435ad8b01f220bdca188d0867ec', null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['ingest-note', 223, 'e41d9435ad8b01f220bdca188d0867ec', null, unpaired('55434717489297e8', 'adk_book_hotel_5')],
      ['catalog-missing', 366, 'd0f75d77caca795afe46ccdd382339c2', null, 'run has 5 tool calls but no catalog record: nothing to check the tool names against'],
      ['ingest-note', 366, 'd0f75d77caca795afe46ccdd382339c2', null, unpaired('47152ca3ebb5b803', 'okahu-demo-lg-tool_book_flight')],
      ['ingest-note', 559, 'd0f75d77caca795afe46ccdd382339c2', null, unpaired('50a8f7afb7196a49', 'okahu-demo-lg-tool_book_flight')],
      // The agent booked the same flight twice with the same arguments: true.
      ['redundant-call', 559, 'd0f75d77caca795afe46ccdd382339c2', null, "tool 'okahu-demo-lg-tool_book_flight' repeats the identical call at line 366 with no state change between them"],
      ['ingest-note', 1176, 'd0f75d77caca795afe46ccdd382339c2', null, unpaired('5e658756ed271644', 'okahu-demo-lg-tool_book_hotel')],
      ['ingest-note', 1232, 'd0f75d77caca795afe46ccdd382339c2', null, unpaired('e3e8c35440213eb9', 'okahu-demo-lg-tool_book_hotel')],
      ['ingest-note', 1916, 'd0f75d77caca795afe46ccdd382339c2', null, unpaired('9764a46a21f17edf', 'demo_get_weather')],
      ['catalog-missing', 79, 'cc777ffa12c2506f3e07fa56d160bfe9', null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['ingest-note', 79, 'cc777ffa12c2506f3e07fa56d160bfe9', null, unpaired('5c092883babb27c3', 'get_nba_past_scores')],
    ]);
  });

  it('the same spans one per line (JSONL) read the same, each record on its span line', async () => {
    const spans = JSON.parse(readFileSync(corpusFile(`${dir}/monocle-langgraph-trace.json`), 'utf8')) as unknown[];
    const { result, runs } = await auditTemp({ 'spans.jsonl': spans.map((s) => `${JSON.stringify(s)}\n`).join('') });
    expect(result.files).toEqual([{ path: 'spans.jsonl', format: 'otel-spans', records: 21, runs: 1, skipped: [], toolCalls: 5, toolResults: 5 }]);
    expect(countRun(runs[0]!)).toMatchObject({ llm: 11, calls: 5, results: 5, orphans: [] });
    // Tool spans are items 9, 13, 26, 27 and 41 of the list (python3).
    expect(runs[0]!.calls.map((c) => c.loc.line)).toEqual([9, 13, 26, 27, 41]);
  });

  it('a span of a list without a span id is counted as skipped; two dropped Monocle tool spans are a partial-read', async () => {
    const spans = JSON.parse(readFileSync(corpusFile(`${dir}/monocle-langgraph-trace.json`), 'utf8')) as Array<{ context: Record<string, unknown> }>;
    // Items 8 and 40 are tool spans (span.type "agentic.tool.invocation", python3); their only tool marks are Monocle's.
    for (const i of [8, 40]) delete spans[i]!.context['span_id'];
    const { result, runs } = await auditTemp({ 'spans.json': JSON.stringify(spans) });
    expect(result.files[0]!.skipped).toEqual([{ reason: 'span without a name and a usable context.span_id', count: 2, firstLine: 1 }]);
    expect(countRun(runs[0]!)).toMatchObject({ calls: 3, results: 3, orphans: [] });
    expect(findingList(result).filter(([rule]) => rule === 'partial-read' || rule === 'malformed-record')).toEqual([
      ['partial-read', 1, null, null, "2 skipped record(s) look like tool calls or results ('otel-spans' does not read them; first at line 1)"],
    ]);
  });

  it('a dropped Monocle span that is not a tool span (item 1, span.type "inference.framework") is counted, with no partial-read', async () => {
    const spans = JSON.parse(readFileSync(corpusFile(`${dir}/monocle-langgraph-trace.json`), 'utf8')) as Array<{ context: Record<string, unknown> }>;
    delete spans[1]!.context['span_id'];
    const { result } = await auditTemp({ 'spans.json': JSON.stringify(spans) });
    expect(result.files[0]!.skipped).toEqual([{ reason: 'span without a name and a usable context.span_id', count: 1, firstLine: 1 }]);
    expect(findingList(result).filter(([rule]) => rule === 'partial-read')).toEqual([]);
  });
});

describeCorpus('otel-spans: what the console exporter prints (pretty-printed spans one after another)', corpusFilesUnder(dir), () => {
  it('reads each span where its object begins; a broken object is one finding and the next span is read', async () => {
    const spans = JSON.parse(readFileSync(corpusFile(`${dir}/monocle-strands-trace.json`), 'utf8')) as unknown[];
    const printed = spans.map((s) => `${JSON.stringify(s, null, 4)}\n`);
    const text = printed.join('');
    const { result, runs } = await auditTemp({ 'console.txt': text });
    expect(result.files).toEqual([{ path: 'console.txt', format: 'otel-spans', records: 4, runs: 1, skipped: [], toolCalls: 1, toolResults: 1 }]);
    expect(countRun(runs[0]!)).toMatchObject({ runId: 'cc777ffa12c2506f3e07fa56d160bfe9', llm: 2, calls: 1, results: 1, orphans: [] });
    // The tool span is the second span printed: it starts on the line after the first one's last line.
    expect(runs[0]!.calls.map((c) => c.loc.line)).toEqual([printed[0]!.split('\n').length]);
    const broken = `${printed[0]}{\n    "name": oops\n}\n${printed.slice(1).join('')}`;
    const second = await auditTemp({ 'console.txt': broken });
    expect(findingList(second.result).filter(([rule]) => rule === 'malformed-record').map(([rule, line]) => [rule, line])).toEqual([['malformed-record', printed[0]!.split('\n').length]]);
    expect(countRun(second.runs[0]!)).toMatchObject({ calls: 1, results: 1 });
  });
});

describe('otel-spans: the GenAI mapping on the flat container', () => {
  it('reads execute_tool spans and model output calls by id, an ERROR status as a failed result', async () => {
    const span = (id: string, parent: string | null, name: string, start: string, end: string, attributes: object, status = 'UNSET') => ({
      name,
      context: { trace_id: '0x5b8aa5a2d2c872e8321cf37308d69df2', span_id: `0x${id}`, trace_state: '[]' },
      kind: 'SpanKind.INTERNAL',
      parent_id: parent === null ? null : `0x${parent}`,
      start_time: start,
      end_time: end,
      status: { status_code: status },
      attributes,
      events: [],
      links: [],
      resource: { attributes: { 'service.name': 'agent' }, schema_url: '' },
    });
    const output = JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'search', arguments: { q: 'otel' } }] }]);
    const doc = [
      span('0000000000000002', '0000000000000001', 'chat gpt-5', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:01.000000Z', { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': output }),
      span('0000000000000003', '0000000000000001', 'execute_tool search', '2026-01-01T00:00:01.100000Z', '2026-01-01T00:00:01.500000Z', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'gen_ai.tool.call.id': 'call_1' }, 'ERROR'),
      span('0000000000000001', null, 'invoke_agent', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:02.000000Z', {}),
    ];
    const { result, runs } = await auditTemp({ 'spans.json': JSON.stringify(doc, null, 4) });
    expect(result.files).toEqual([{ path: 'spans.json', format: 'otel-spans', records: 3, runs: 1, skipped: [], toolCalls: 1, toolResults: 1 }]);
    expect(countRun(runs[0]!)).toEqual({ runId: '5b8aa5a2d2c872e8321cf37308d69df2', llm: 1, calls: 1, results: 1, errors: 1, orphans: [], unmatched: [], catalog: [] });
    expect(runs[0]!.results[0]).toMatchObject({ callId: 'call_1', tool: 'search', isError: true, ts: 1767225601500 });
  });
});
