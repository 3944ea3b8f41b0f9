import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const ROWS = '{"ok":true,"rows":2}';
const WRAPPED = '{"type":"tool_result","body":{"ok":true,"rows":2}}';

const record = (callId: string, p: string, a: string, m: string, hop: string) => ({
  run_id: 'r',
  tool_call_id: callId,
  process_sha256: sha(p),
  adapter_sha256: sha(a),
  model_sha256: sha(m),
  process_len: p.length,
  adapter_len: a.length,
  model_len: m.length,
  mutation_hop: hop,
});

describe('mutation-label-mismatch', () => {
  it('flags a recorded label that differs from the recomputed hop, and an unknown label', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        // The article's warning: canonicalized adapter bytes against raw process bytes read as adapter_grow.
        record('call_1', ROWS, ROWS, WRAPPED, 'adapter_grow'),
        record('call_2', ROWS, ROWS, ROWS, 'unchanged'),
      ),
    });
    expect(findingsOf(result, 'mutation-label-mismatch')).toEqual([
      { line: 1, callId: 'call_1', tool: null, runId: 'r', message: "call 'call_1': recorded mutation_hop 'adapter_grow', recomputed 'prompt_builder_wrap'" },
      { line: 2, callId: 'call_2', tool: null, runId: 'r', message: "call 'call_2': recorded mutation_hop 'unchanged' (not a known hop label), recomputed 'no_payload_mutation'" },
    ]);
  });

  it('recomputes from saved payloads rather than recorded hashes', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl({ call_id: 'c', process_payload: ROWS, adapter_payload: ROWS, model_payload: WRAPPED, process_sha256: 'f'.repeat(64), adapter_sha256: sha(ROWS), model_sha256: sha(WRAPPED), mutation_hop: 'adapter_grow' }),
    });
    expect(findingsOf(result, 'mutation-label-mismatch').map((f) => f.message)).toEqual(["call 'c': recorded mutation_hop 'adapter_grow', recomputed 'prompt_builder_wrap'"]);
  });

  it('accepts correct labels, records without a label, and skips records it cannot recompute', async () => {
    const result = await auditFiles({
      't.jsonl': jsonl(
        record('a', ROWS, ROWS, WRAPPED, 'prompt_builder_wrap'),
        record('b', ROWS, ROWS, ROWS, 'no_payload_mutation'),
        { ...record('c', ROWS, ROWS, ROWS, 'x'), mutation_hop: undefined },
        { call_id: 'd', process_sha256: sha(ROWS), mutation_hop: 'adapter_shrink' },
      ),
    });
    expect(findingsOf(result, 'mutation-label-mismatch')).toEqual([]);
  });
});
