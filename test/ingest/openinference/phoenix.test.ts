import { describe, expect, it } from 'vitest';
import { corpusCounts, corpusFile, describeCorpus } from '../../public-corpus.js';
import { auditPaths, auditTemp, countRun, findingList } from '../corpus.js';

const TURN = 'openinference/phoenix-pxi-turn-trace.json';
const SUBAGENT = 'openinference/phoenix-pxi-turn-subagent-trace.json';
const BARE = 'openinference/openinference-genai-client-span-tool-calls.json';

async function read(file: string) {
  const { result, runs } = await auditPaths([corpusFile(file)]);
  expect(runs).toHaveLength(1);
  const counts = countRun(runs[0]!);
  const { calls, results, orphans, errors } = corpusCounts(file);
  return { result, run: runs[0]!, counts, expected: { calls, results, orphans, errors }, got: { calls: counts.calls, results: counts.results, orphans: counts.orphans.length, errors: counts.errors } };
}

describeCorpus('OpenInference: Arize Phoenix span JSON', [TURN, SUBAGENT], () => {
  it('LLM spans (span_kind beside the attributes) give the calls, TOOL spans (tool.id) the results', async () => {
    const { result, run, got, expected } = await read(TURN);
    expect(result.files[0]).toMatchObject({ format: 'otel-spans', skipped: [] });
    expect(got).toEqual(expected);
    expect(run.calls.map((c) => c.callId)).toEqual(['call-01', 'call-02', 'call-03', 'call-04', 'call-05', 'call-06', 'call-07', 'call-08', 'call-09', 'call-10', 'call-11']);
    // The TOOL span with status_code ERROR is the error result; the file has no catalog.
    expect(run.results.filter((r) => r.isError).map((r) => [r.callId, r.tool])).toEqual([['call-08', 'add_spans_to_dataset']]);
    expect(findingList(result).map(([rule, line, , callId]) => [rule, line, callId])).toEqual([
      ['catalog-missing', 30, null],
      ['unstructured-error', 521, 'call-08'],
    ]);
  });

  it('a subagent turn: the agent run as a tool (call_subagent) is its own run, each pairs in itself, no orphan and no note', async () => {
    const { result, runs } = await auditPaths([corpusFile(SUBAGENT)]);
    expect(result.files[0]).toMatchObject({ format: 'otel-spans', runs: 2, skipped: [] });
    // Counted with python3, spans split at the TOOL span s03 (call_subagent, the answer to
    // call-02) whose AGENT child s04 runs its own model: the turn keeps call-01 (in s02's
    // input history) and call-02, each answered; below s03, call-03..call-19, each answered
    // by its TOOL span. The nested model's history holds only its own calls, so nothing is
    // asked on one side of the split and answered on the other.
    const counted = runs.map((run) => {
      const c = countRun(run);
      return { runId: c.runId, calls: c.calls, results: c.results, errors: c.errors, orphans: c.orphans, unmatched: c.unmatched };
    });
    expect(counted).toEqual([
      { runId: 'fixture-subagent-trace', calls: 2, results: 2, errors: 0, orphans: [], unmatched: [] },
      { runId: 'fixture-subagent-trace/s03', calls: 17, results: 17, errors: 0, orphans: [], unmatched: [] },
    ]);
    expect(runs.map((run) => run.calls.map((c) => c.callId))).toEqual([
      ['call-01', 'call-02'],
      Array.from({ length: 17 }, (_, i) => `call-${String(i + 3).padStart(2, '0')}`),
    ]);
    const { calls, results, orphans, errors } = corpusCounts(SUBAGENT);
    expect({ calls: 2 + 17, results: 2 + 17, orphans: 0, errors: 0 }).toEqual({ calls, results, orphans, errors });
    const rules = new Set(result.findings.map((f) => f.ruleId));
    for (const rule of ['orphan-call', 'unmatched-result', 'continued-while-outstanding', 'malformed-record', 'unknown-format', 'ingest-note', 'partial-read']) expect(rules.has(rule)).toBe(false);
  });
});

describeCorpus('OpenInference: a bare attribute map', [BARE], () => {
  it('is one span of its own: the history call and the tool message that answers it', async () => {
    const { result, run, got, expected } = await read(BARE);
    expect(result.files[0]).toMatchObject({ format: 'otel-spans', records: 3, skipped: [] });
    expect({ calls: got.calls, results: got.results, orphans: got.orphans }).toEqual({ calls: expected.calls, results: expected.results, orphans: expected.orphans });
    expect(run.calls.map((c) => [c.callId, c.tool, c.args])).toEqual([['1234', 'get_weather', { location: 'Paris' }]]);
    expect(findingList(result).map(([rule]) => rule)).toEqual(['catalog-missing']);
  });
});

describe('OpenInference: Phoenix span JSON beyond the public files', () => {
  const span = (id: string, kind: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name: kind.toLowerCase(),
    context: { trace_id: 't-1', span_id: id },
    span_kind: kind,
    parent_id: null,
    start_time: `2026-01-01T00:00:0${id.slice(1)}+00:00`,
    end_time: `2026-01-01T00:00:0${id.slice(1)}.500000+00:00`,
    status_code: 'OK',
    status_message: '',
    attributes,
    events: [],
    ...extra,
  });
  it('an output message call whose TOOL span never came is an orphan; status_code ERROR with status_message is an error result', async () => {
    const spans = [
      span('s1', 'LLM', {
        'llm.output_messages.0.message.role': 'assistant',
        'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'c1',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'search',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"q":"x"}',
        'llm.output_messages.0.message.tool_calls.1.tool_call.id': 'c2',
        'llm.output_messages.0.message.tool_calls.1.tool_call.function.name': 'fetch',
      }),
      span('s2', 'TOOL', { 'tool.name': 'search', 'tool_call.id': 'c1', 'input.value': '{"q":"x"}' }, { status_code: 'ERROR', status_message: 'timeout' }),
    ];
    const { result, runs } = await auditTemp({ 'spans.json': JSON.stringify(spans, null, 2) });
    expect(result.files[0]!.format).toBe('otel-spans');
    expect(countRun(runs[0]!)).toMatchObject({ llm: 1, calls: 2, results: 1, errors: 1, orphans: ['c2:fetch'] });
    expect(runs[0]!.results[0]!.content).toBe('timeout');
  });
});
