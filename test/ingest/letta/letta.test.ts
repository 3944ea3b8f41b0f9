import { expect, it } from 'vitest';
import { corpusCounts, corpusFile, describeCorpus } from '../../public-corpus.js';
import { auditPaths, auditTemp, countRun } from '../corpus.js';

// Truth: the manifest's counts (python3: tool_calls ids vs role "tool" messages' tool_call_id, per agent).
const FILES = ['letta/memgpt-agent-with-convo.af', 'letta/loop.af'];

describeCorpus('Letta agent files (.af)', FILES, () => {
  it('reads a one-agent file: 28 calls, each answered; the tools (json_schema.parameters) are the catalog', async () => {
    const file = FILES[0]!;
    const { result, runs } = await auditPaths([corpusFile(file)]);
    expect(result.files.map((f) => [f.format, f.runs, f.skipped])).toEqual([['letta', 1, []]]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'memgpt_agent', llm: 28, calls: 28, results: 28, errors: 0, orphans: [], unmatched: [], catalog: ['archival_memory_insert', 'archival_memory_search', 'conversation_search', 'core_memory_append', 'core_memory_replace', 'send_message'] },
    ]);
    const counts = corpusCounts(file);
    expect([runs[0]!.calls.length, runs[0]!.results.length, countRun(runs[0]!).orphans.length]).toEqual([counts.calls, counts.results, counts.orphans]);
    expect(result.findings.map((f) => [f.ruleId, f.severity, f.line, f.callId])).toEqual([
      // Letta's server writes the boot sequence ("Bootup sequence complete.") with a send_message call that
      // lacks the request_heartbeat its own schema requires: true of the file.
      ['invalid-arguments', 'error', 1, '787790f6-32cb-492a-a581-8de0aefe0c55'],
      ['unused-tool', 'note', 1, null],
      ['unused-tool', 'note', 1, null],
      ['unused-tool', 'note', 1, null],
    ]);
  });

  it('reads agents[] (agent files from Letta 0.8): the agent id is the run, its tool_ids pick the catalog from the file tools', async () => {
    const file = FILES[1]!;
    const { result, runs } = await auditPaths([corpusFile(file)]);
    expect(result.files.map((f) => [f.format, f.runs, f.skipped])).toEqual([['letta', 1, []]]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'agent-0', llm: 1, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['archival_memory_insert', 'archival_memory_search', 'conversation_search', 'fetch_webpage', 'memory_insert', 'memory_replace', 'memory_rethink', 'note', 'web_search'] },
    ]);
    const counts = corpusCounts(file);
    expect([runs[0]!.calls.length, runs[0]!.results.length]).toEqual([counts.calls, counts.results]);
    // The initial message sequence calls send_message, which this agent's tools do not hold: true of the file.
    expect(result.findings.filter((f) => f.severity !== 'note').map((f) => [f.ruleId, f.line, f.tool])).toEqual([['unknown-tool', 144, 'send_message']]);
  });
});

const MORE = ['letta/lettabot-builder.af', 'letta/customer-service.af'];

describeCorpus('Letta agent files: a file past the detection head, and a twice-encoded one', MORE, () => {
  it('lettabot-builder (1.1 MB, two agents): the sleeptime agent\'s 62 calls, each answered', async () => {
    const file = MORE[0]!;
    const { result, runs } = await auditPaths([corpusFile(file)]);
    expect(result.files.map((f) => [f.format, f.runs, f.skipped])).toEqual([['letta', 2, []]]);
    expect(runs.map((r) => [r.runId, countRun(r).llm, r.calls.length, r.results.length, countRun(r).orphans.length])).toEqual([
      ['agent-0', 1, 0, 0, 0],
      ['agent-1', 64, 62, 62, 0],
    ]);
    const counts = corpusCounts(file);
    expect([runs[1]!.calls.length, runs[1]!.results.length]).toEqual([counts.calls, counts.results]);
    // The sleeptime agent calls memory_finish_edits({}) 59 times: retry-storm and non-determinism say so (true of the file).
    expect([...new Set(result.findings.filter((f) => f.severity === 'error').map((f) => f.ruleId))]).toEqual([]);
  });

  it('customer_service.af is one JSON string holding the agent file: decoded, read, no calls in its history', async () => {
    const { result, runs } = await auditPaths([corpusFile(MORE[1]!)]);
    expect(result.files.map((f) => [f.format, f.runs, f.skipped])).toEqual([['letta', 1, []]]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'agent-1', llm: 0, calls: 0, results: 0, errors: 0, orphans: [], unmatched: [], catalog: ['cancel_order', 'check_order_status', 'conversation_search', 'escalate', 'memory_insert', 'memory_replace', 'terminate_chat'] },
    ]);
    expect(result.findings.filter((f) => f.severity !== 'note')).toEqual([]);
  });
});

it('a failed Letta tool return (tool_returns status error, or an old file\'s "status": "Failed") is an error result', async () => {
  const agent = (messages: unknown[]) => JSON.stringify({ agent_type: 'memgpt_agent', llm_config: { model: 'm' }, name: 'a', tools: [{ name: 't', json_schema: { name: 't', parameters: { type: 'object' } } }], messages });
  const call = (id: string) => ({ role: 'assistant', content: [], tool_calls: [{ id, type: 'function', function: { name: 't', arguments: '{}' } }] });
  const { result, runs } = await auditTemp({
    'x.af': agent([
      call('c1'),
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: '{"status": "Failed", "message": "boom"}' }], tool_returns: [] },
      call('c2'),
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'x' }], tool_returns: [{ tool_call_id: 'c2', status: 'error' }] },
      call('c3'),
      { role: 'tool', tool_call_id: 'c3', content: [{ type: 'text', text: '{"status": "OK"}' }], tool_returns: [{ tool_call_id: 'c3', status: 'success' }] },
    ]),
  });
  expect(result.files.map((f) => f.format)).toEqual(['letta']);
  expect(runs[0]!.results.map((r) => [r.callId, r.isError])).toEqual([['c1', true], ['c2', true], ['c3', false]]);
});
