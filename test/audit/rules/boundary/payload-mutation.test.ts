import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const ROWS = '{"ok":true,"rows":2}';
const NOTE = '{"ok":true,"rows":2,"note":"abcdef"}';
const WRAPPED = '{"type":"tool_result","body":{"ok":true,"rows":2}}';

/** A boundary record from the three byte strings (hashes and lengths computed, as a harness would). */
const record = (callId: string, p: string, a: string, m: string, extra: object = {}) => ({
  run_id: 'run_7f3a',
  tool_call_id: callId,
  tool_name: 'read_file',
  process_sha256: sha(p),
  adapter_sha256: sha(a),
  model_sha256: sha(m),
  process_len: p.length,
  adapter_len: a.length,
  model_len: m.length,
  ...extra,
});

describe('payload-mutation', () => {
  it('reports every hop but no_payload_mutation, with the owner to hand it to', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        record('call_91', NOTE, ROWS, ROWS),
        record('call_92', ROWS, ROWS, WRAPPED),
        record('call_93', ROWS, ROWS, ROWS),
        { ...record('call_94', ROWS, ROWS, ROWS), model_len: 19 },
        record('call_95', ROWS, '{"rows":2,"ok":true}', '{"rows":2,"ok":true}'),
      ),
    });
    expect(findingsOf(result, 'payload-mutation')).toEqual([
      { line: 1, callId: 'call_91', tool: null, runId: 'run_7f3a', message: "call 'call_91': adapter_shrink: the adapter removed bytes from the tool output (36 → 20 → 20 bytes); hand to adapter author" },
      { line: 2, callId: 'call_92', tool: null, runId: 'run_7f3a', message: "call 'call_92': prompt_builder_wrap: the prompt builder wrapped the adapter output (20 → 20 → 50 bytes); hand to prompt author" },
      {
        line: 4,
        callId: 'call_94',
        tool: null,
        runId: 'run_7f3a',
        message: "call 'call_94': hash_slice_mismatch: equal hashes over different lengths: the hashes cover other bytes than the lengths (20 → 20 → 19 bytes); hand to observability code",
      },
      { line: 5, callId: 'call_95', tool: null, runId: 'run_7f3a', message: "call 'call_95': needs_manual_review: the bytes changed but the length did not (20 → 20 → 20 bytes); hand to adapter author" },
    ]);
  });

  it('hashes saved payloads itself and reports recorded figures they contradict', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl({
        call_id: 'c1',
        process_payload: NOTE,
        adapter_payload: ROWS,
        model_payload: ROWS,
        process_sha256: sha(NOTE),
        adapter_sha256: sha(ROWS),
        model_sha256: sha(NOTE),
        process_len: 36,
        adapter_len: 20,
        model_len: 36,
      }),
    });
    expect(findingsOf(result, 'payload-mutation').map((f) => f.message)).toEqual([
      "call 'c1': adapter_shrink: the adapter removed bytes from the tool output (36 → 20 → 20 bytes); hand to adapter author",
      `call 'c1': recorded model_len 36 disagrees with the saved payload (20); hand to observability code`,
      `call 'c1': recorded model_sha256 ${sha(NOTE).slice(0, 12)} disagrees with the saved payload (${sha(ROWS).slice(0, 12)}); hand to observability code`,
    ]);
  });

  it('classifies a record that carries only the saved payloads', async () => {
    const result = await auditFiles({ 't.jsonl': jsonl({ call_id: 'c', process_payload: ROWS, adapter_payload: ROWS, model_payload: WRAPPED }) });
    expect(findingsOf(result, 'payload-mutation').map((f) => f.message)).toEqual([
      "call 'c': prompt_builder_wrap: the prompt builder wrapped the adapter output (20 → 20 → 50 bytes); hand to prompt author",
    ]);
    expect(findingsOf(result, 'malformed-record')).toEqual([]);
  });

  it('counts payload bytes as UTF-8, not characters', async () => {
    const text = '{"city":"Zürich"}';
    const result = await auditFiles({ 't.jsonl': jsonl({ call_id: 'c', process_payload: text, adapter_payload: text, model_payload: text, process_len: 18, adapter_len: 18, model_len: 18 }) });
    expect(findingsOf(result, 'payload-mutation')).toEqual([]);
  });

  it('says which fields are missing when the hop cannot be computed', async () => {
    const result = await auditFiles({ 't.jsonl': jsonl({ call_id: 'c', process_sha256: sha(ROWS), adapter_sha256: sha(ROWS), process_len: 20, adapter_len: 20 }) });
    expect(findingsOf(result, 'payload-mutation').map((f) => f.message)).toEqual([
      "call 'c': needs_manual_review: the hop cannot be computed without model_sha256, model_len; hand to observability code",
    ]);
  });

  it('does not report an unchanged payload, on its own line or on a tool result', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        record('c1', ROWS, ROWS, ROWS),
        { kind: 'tool_call', call_id: 'c2', tool: 'ls' },
        { kind: 'tool_result', call_id: 'c2', tool: 'ls', result: ROWS, ...record('c2', ROWS, ROWS, ROWS), mutation_hop: 'no_payload_mutation' },
      ),
    });
    expect(findingsOf(result, 'payload-mutation')).toEqual([]);
  });
});
