import { describe, expect, it } from 'vitest';
import { corpusCounts, corpusFile, describeCorpus } from '../../public-corpus.js';
import { auditPaths, auditTemp, countRun, findingList } from '../corpus.js';

const BARE = 'openinference/openinference-genai-client-span-tool-calls.json';

async function read(file: string) {
  const { result, runs } = await auditPaths([corpusFile(file)]);
  expect(runs).toHaveLength(1);
  const counts = countRun(runs[0]!);
  const { calls, results, orphans, errors } = corpusCounts(file);
  return { result, run: runs[0]!, counts, expected: { calls, results, orphans, errors }, got: { calls: counts.calls, results: counts.results, orphans: counts.orphans.length, errors: counts.errors } };
}

describeCorpus('OpenInference: a bare attribute map', [BARE], () => {
  it('is one span of its own: the history call and the tool message that answers it', async () => {
    const { result, run, got, expected } = await read(BARE);
    expect(result.files[0]).toMatchObject({ format: 'otel-spans', records: 3, skipped: [] });
    expect({ calls: got.calls, results: got.results, orphans: got.orphans }).toEqual({ calls: expected.calls, results: expected.results, orphans: expected.orphans });
    expect(run.calls.map((c) => [c.callId, c.tool, c.args])).toEqual([['1234', 'get_weather', { location: 'Paris' }]]);
    expect(findingList(result).map(([rule]) => rule)).toEqual(['catalog-missing']);
  });
});

describe('OpenInference: Phoenix span JSON, written here (the public Phoenix fixtures are under the Elastic License, not in the corpus)', () => {
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
