import { describe, expect, it } from 'vitest';
import { nativeFormat } from '../../../src/ingest/native/index.js';
import type { Diagnostic } from '../../../src/ingest/types.js';
import type { TraceRecord } from '../../../src/model/records.js';
import { DEFAULT_LIMITS } from '../../../src/io/limits.js';
import { LineSplitter } from '../../../src/io/line-splitter.js';

/** The lines of `text` as one batch (the splitter fed the whole text as one chunk). */
function lineBatch(text: string) {
  const splitter = new LineSplitter(DEFAULT_LIMITS.maxLineBytes, { bytes: 0, lines: 0, bom: false, missingFinalNewline: false });
  const events = splitter.split(Buffer.from(text));
  const last = splitter.end();
  return last === null ? events : [...events, last];
}
import { jsonl } from '../../helpers.js';

async function parse(text: string): Promise<{ records: TraceRecord[]; diagnostics: Diagnostic[] }> {
  const records: TraceRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  await nativeFormat.parse(
    {
      file: 't.jsonl',
      limits: DEFAULT_LIMITS,
      lineBatches: async function* () {
        yield lineBatch(text);
      },
      chunks: async function* () {
        yield Buffer.from(text);
      },
      bytes: async () => Buffer.from(text),
    },
    {
      record: (r) => records.push(r),
      diagnostic: (d) => diagnostics.push(d),
      skip: (s) => {
        throw new Error(`native parser skipped line ${s.line} (${s.reason}) without a diagnostic`);
      },
    },
  );
  return { records, diagnostics };
}

describe('native JSONL dialects', () => {
  it('span logs: every first-class field', async () => {
    const { records } = await parse(
      jsonl(
        { ts: '2026-09-07T09:14:01.440Z', run_id: 'r_18', span_id: 's2', kind: 'tool_call', call_id: 'c_9', tool: 'web_search', args_hash: 'a1f3', deadline_ms: 8000 },
        { ts: 1757236444201, run_id: 'r_18', span_id: 's3', kind: 'tool_result', call_id: 'c_9', tool: 'web_search', http_status: 503, error_class: 'UpstreamError' },
        { ts: 1757236445.5, run_id: 'r_18', kind: 'llm', duration_ms: 250 },
        { run_id: 'r_18', span_id: 's4', kind: 'blocked_on', call_id: 'c_9' },
        { run_id: 'r_18', kind: 'llm', event: 'blocked_on', call_ids: ['c_9', 10] },
      ),
    );
    expect(records).toEqual([
      { kind: 'tool_call', loc: { file: 't.jsonl', line: 1 }, runId: 'r_18', ts: Date.parse('2026-09-07T09:14:01.440Z'), spanId: 's2', catalogSha256: null, callId: 'c_9', tool: 'web_search', args: undefined, argsHash: 'a1f3', deadlineMs: 8000, index: null, schemaSha256: null },
      { kind: 'tool_result', loc: { file: 't.jsonl', line: 2 }, runId: 'r_18', ts: 1757236444201, spanId: 's3', catalogSha256: null, callId: 'c_9', tool: 'web_search', content: undefined, isError: true, errorClass: 'UpstreamError', errorCode: null, httpStatus: 503, exitCode: null, index: null },
      { kind: 'llm', loc: { file: 't.jsonl', line: 3 }, runId: 'r_18', ts: 1757236445500, spanId: null, catalogSha256: null, endTs: 1757236445750 },
      { kind: 'blocked_on', loc: { file: 't.jsonl', line: 4 }, runId: 'r_18', ts: null, spanId: 's4', catalogSha256: null, callIds: ['c_9'] },
      { kind: 'blocked_on', loc: { file: 't.jsonl', line: 5 }, runId: 'r_18', ts: null, spanId: null, catalogSha256: null, callIds: ['c_9', '10'] },
    ]);
  });

  it('typed events: catalog with per-tool schema hashes, calls with arguments, results with exit codes', async () => {
    const { records, diagnostics } = await parse(
      jsonl(
        { type: 'catalog', run_id: 'u1', catalog_names: ['grep', 'pytest'], catalog_sha256: 'abc', schema_sha256: { grep: 'g1', pytest: 'p1' } },
        { type: 'tool_call', run_id: 'u1', catalog_sha256: 'abc', tool_call_id: 'call_1', name: 'pytest', arguments: { args: ['-q'] }, args_sha256: 'h' },
        { type: 'tool_result', run_id: 'u1', tool_call_id: 'call_1', name: 'pytest', exit_code: 2, output_head: 'unknown tool' },
        { type: 'catalog_unused', run_id: 'u1', unused_names: ['grep'], flags: ['UNUSED_TOOL'] },
      ),
    );
    expect(diagnostics).toEqual([]);
    expect(records.map((r) => r.kind)).toEqual(['catalog', 'tool_call', 'tool_result']);
    expect(records[0]).toMatchObject({ names: ['grep', 'pytest'], recordedSha256: 'abc', tools: [{ name: 'grep', schemaSha256: 'g1' }, { name: 'pytest', schemaSha256: 'p1' }] });
    expect(records[1]).toMatchObject({ callId: 'call_1', tool: 'pytest', args: { args: ['-q'] }, argsHash: 'h', catalogSha256: 'abc' });
    expect(records[2]).toMatchObject({ callId: 'call_1', isError: true, exitCode: 2, content: 'unknown tool' });
  });

  it('boundary fields on a call line give a boundary record too; receipts standalone and embedded', async () => {
    const [P, A, M] = ['1', 'a', 'b'].map((c) => c.repeat(64));
    const { records } = await parse(
      jsonl(
        { type: 'tool_call', run_id: 'r', tool_call_id: 'c', name: 'query', process_sha256: P, adapter_sha256: A, model_sha256: M, process_len: 36, adapter_len: 20, model_len: 20, mutation_hop: 'adapter_shrink' },
        { run_id: 'r', field_path: '$.email', rule_id: 'pii.email', original_len: 17, token: '[EMAIL_1]' },
        { type: 'tool_result', run_id: 'r', tool_call_id: 'c', redactions: [{ field_path: '$.key', rule_id: 'secret.key', original_len: 40, token: 'T' }] },
      ),
    );
    expect(records.map((r) => r.kind)).toEqual(['tool_call', 'boundary', 'redaction', 'tool_result', 'redaction']);
    expect(records[1]).toMatchObject({ callId: 'c', processSha256: P, adapterSha256: A, modelSha256: M, processLen: 36, adapterLen: 20, modelLen: 20, mutationHop: 'adapter_shrink' });
    expect(records[2]).toMatchObject({ fieldPath: '$.email', ruleId: 'pii.email', originalLen: 17, token: '[EMAIL_1]', runId: 'r' });
    expect(records[4]).toMatchObject({ fieldPath: '$.key', ruleId: 'secret.key', runId: 'r', loc: { line: 3 } });
  });

  it('replay transcripts are strict: exact fields, integer index from 0 rising by 1, object args and response', async () => {
    const { records, diagnostics } = await parse(
      [
        '{"index": 0, "tool": "read_file", "args": {"path": "a"}, "response": {"ok": true}}',
        '{"index": true, "tool": "x", "args": {}, "response": {}}',
        '{"index": 2, "tool": "x", "args": [], "response": {}}',
        '{"index": 3, "tool": "x", "args": {}, "response": {}, "extra": 1}',
        '{"index": 5, "tool": "x", "args": {}, "response": {}}',
        '{"index": 6, "tool": "x", "args": {}}',
        '{"index": 7, "tool": "write_file", "args": {"path": "b"}, "response": {"error": {"code": "EACCES"}}}',
        '',
      ].join('\n'),
    );
    expect(diagnostics.map((d) => [d.line, d.message])).toEqual([
      [2, 'replay "index" must be an integer, not a boolean'],
      [3, 'replay "args" must be an object, not an array'],
      [4, 'replay record has unknown field(s) "extra"'],
      [5, 'replay index 5 is out of order: expected 4'],
      [6, 'replay record lacks field(s) response'],
    ]);
    expect(records.map((r) => [r.kind, r.loc.line, 'index' in r ? r.index : null])).toEqual([
      ['tool_call', 1, 0],
      ['tool_result', 1, 0],
      ['tool_call', 7, 7],
      ['tool_result', 7, 7],
    ]);
    expect(records[3]).toMatchObject({ isError: true, errorCode: 'EACCES', callId: 'index:7' });
  });

  it('names wrong field types instead of guessing', async () => {
    const { diagnostics } = await parse(
      jsonl({ type: 'catalog', catalog_names: ['a', 1] }, { kind: 'tool_call', call_id: 'c' }, { type: 'tool_call', name: 5 }, { field_path: 1, rule_id: 'x' }),
    );
    expect(diagnostics.map((d) => d.message)).toEqual([
      'catalog "catalog_names" is not a list of strings',
      'tool_call span without a string "tool"',
      'tool_call event without a string "name"',
      'redaction receipt lacks a string field_path or rule_id',
    ]);
  });
});
