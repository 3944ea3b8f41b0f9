import { describe, expect, it } from 'vitest';
import { corpusCounts, corpusFile, describeCorpus } from '../../public-corpus.js';
import { auditPaths, auditTemp, countRun, findingList } from '../corpus.js';

const GOOGLE = 'any-agent/GOOGLE_trace.json';
const LANGCHAIN = 'any-agent/LANGCHAIN_trace.json';

async function read(file: string) {
  const { result, runs } = await auditPaths([corpusFile(file)]);
  expect(runs).toHaveLength(1);
  const counts = countRun(runs[0]!);
  const { calls, results, orphans } = corpusCounts(file);
  return { result, run: runs[0]!, expected: { calls, results, orphans }, got: { calls: counts.calls, results: counts.results, orphans: counts.orphans.length } };
}

describeCorpus('any-agent: trace JSON', [GOOGLE, LANGCHAIN], () => {
  it('call_llm outputs are the calls, execute_tool spans (with call ids) their results; integer trace ids kept exact', async () => {
    const { result, run, got, expected } = await read(GOOGLE);
    expect(result.files[0]).toMatchObject({ format: 'any-agent', skipped: [] });
    expect(got).toEqual(expected);
    // 273475590164507581703505203264503192396 in hex (python3: format(n, '032x')).
    expect(run.runId).toBe('cdbd7b99cef221c28dd6d03c27d09b4c');
    expect(run.calls.map((c) => [c.callId, c.tool, c.args])).toEqual([
      ['jbUWqgIUr', 'get_current_time', { timezone: 'America/New_York' }],
      ['j5pzf0TaM', 'write_file', { text: '2025' }],
      ['Je755BQAS', 'final_output', run.calls[2]!.args],
    ]);
    // Each call is paired with its tool span by order (the model's output has no ids): one note each.
    expect(findingList(result).map(([rule, line, , callId]) => [rule, line, callId])).toEqual([
      ['catalog-missing', 3, null],
      ['ingest-note', 57, 'jbUWqgIUr'],
      ['ingest-note', 162, 'j5pzf0TaM'],
      ['ingest-note', 267, 'Je755BQAS'],
    ]);
  });

  it('tool spans without call ids are paired by order, with a note each', async () => {
    const { result, run, got, expected } = await read(LANGCHAIN);
    expect(result.files[0]).toMatchObject({ format: 'any-agent', skipped: [] });
    expect(got).toEqual(expected);
    expect(run.llmSpans).toHaveLength(4);
    expect(run.results.map((r) => [r.tool, r.content])).toEqual([
      ['get_current_time', '{\n  "timezone": "America/New_York",\n  "datetime": "2025-09-16T09:16:41-04:00",\n  "is_dst": true\n}'],
      ['write_file', 'null'],
    ]);
    const rules = findingList(result).map(([rule]) => rule);
    expect(rules.filter((r) => r !== 'ingest-note')).toEqual(['catalog-missing']);
    expect(rules.filter((r) => r === 'ingest-note')).toHaveLength(3);
  });
});

const FRAMEWORKS = ['AGNO', 'LLAMA_INDEX', 'OPENAI', 'SMOLAGENTS', 'TINYAGENT'].map((name) => `any-agent/${name}_trace.json`);

describeCorpus('any-agent: the traces of its other frameworks', FRAMEWORKS, () => {
  it.each(FRAMEWORKS)('%s: calls, results and orphans as counted, no error-level finding', async (file) => {
    const { result, got, expected } = await read(file);
    expect(result.files[0]).toMatchObject({ format: 'any-agent', skipped: [] });
    expect(got).toEqual(expected);
    // Besides the pairing notes, the one finding is the missing catalog (the file has none).
    expect(findingList(result).map(([rule]) => rule).filter((rule) => rule !== 'ingest-note')).toEqual(['catalog-missing']);
  });
});

describe('any-agent: shapes beyond the public files', () => {
  const ctx = (span: bigint) => ({ trace_id: 0x1234567890abcdef1234567890abcdefn, span_id: span, is_remote: false });
  const json = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `@@${v}@@` : v), 2).replace(/"@@(\d+)@@"/g, '$1');
  it('span ids past 2^53 that differ only in their last digits stay apart, and a call with no tool span is an orphan', async () => {
    const base = 18_000_000_000_000_000_000n;
    const doc = {
      spans: [
        { name: 'call_llm m', kind: 'internal', parent: null, start_time: 1_000_000_000, end_time: 2_000_000_000, status: { status_code: 'ok' }, context: ctx(base + 1n),
          attributes: { 'gen_ai.operation.name': 'call_llm', 'gen_ai.output': '[{"tool.name": "a", "tool.args": {}}, {"tool.name": "b", "tool.args": {"x": 1}}]', 'gen_ai.output.type': 'json' } },
        { name: 'execute_tool a', kind: 'internal', parent: ctx(base + 1n), start_time: 3_000_000_000, end_time: 4_000_000_000, status: { status_code: 'error', description: 'boom' }, context: ctx(base + 2n),
          attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'a', 'gen_ai.tool.args': '{}', 'gen_ai.tool.call.id': 'id-a', 'gen_ai.output': 'boom', 'gen_ai.output.type': 'text' } },
      ],
      final_output: null,
    };
    const { result, runs } = await auditTemp({ 'trace.json': json(doc) });
    expect(result.files[0]!.format).toBe('any-agent');
    expect(runs[0]!.runId).toBe('1234567890abcdef1234567890abcdef');
    expect(countRun(runs[0]!)).toMatchObject({ llm: 1, calls: 2, results: 1, errors: 1, orphans: ['-:b'] });
    expect(runs[0]!.calls.map((c) => [c.callId, c.spanId])).toEqual([
      ['id-a', (base + 1n).toString(16)],
      [null, (base + 1n).toString(16)],
    ]);
  });
});
