import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { classifyHop, MUTATION_HOPS, type BoundaryDigests } from '../../../src/audit/boundary/mutation-hop.js';

const P = 'a'.repeat(64);
const A = 'b'.repeat(64);
const M = 'c'.repeat(64);

const d = (processSha256: string, adapterSha256: string, modelSha256: string, processLen: number, adapterLen: number, modelLen: number): BoundaryDigests => ({
  processSha256,
  adapterSha256,
  modelSha256,
  processLen,
  adapterLen,
  modelLen,
});

// Every row of the hop table: process vs adapter hash, adapter vs model hash, lengths.
const TABLE: Array<[string, BoundaryDigests, string, string]> = [
  ['p≠a, adapter shorter', d(P, A, A, 36, 20, 20), 'adapter_shrink', 'adapter author'],
  ['p≠a, adapter shorter, model changed too', d(P, A, M, 36, 20, 48), 'adapter_shrink', 'adapter author'],
  ['p≠a, adapter longer', d(P, A, A, 20, 48, 48), 'adapter_grow', 'adapter author'],
  ['p=a, a≠m, model longer', d(P, P, M, 20, 20, 48), 'prompt_builder_wrap', 'prompt author'],
  ['p=a, a≠m, model shorter', d(P, P, M, 48, 48, 20), 'prompt_builder_drop', 'prompt author'],
  ['all equal', d(P, P, P, 20, 20, 20), 'no_payload_mutation', 'nobody'],
  ['equal hashes, model length differs', d(P, P, P, 20, 20, 21), 'hash_slice_mismatch', 'observability code'],
  ['equal hashes, adapter length differs', d(P, P, P, 20, 19, 20), 'hash_slice_mismatch', 'observability code'],
  ['p≠a, same length', d(P, A, A, 20, 20, 20), 'needs_manual_review', 'adapter author'],
  ['p=a, a≠m, same length', d(P, P, M, 20, 20, 20), 'needs_manual_review', 'prompt author'],
];

describe('classifyHop', () => {
  it.each(TABLE)('%s → %s', (_name, digests, hop, owner) => {
    expect(classifyHop(digests)).toEqual({ hop, owner });
  });

  it('covers every hop label', () => {
    expect(new Set(TABLE.map((row) => row[2]))).toEqual(new Set(MUTATION_HOPS));
  });

  it('compares hex digests case-insensitively', () => {
    expect(classifyHop(d(P, P.toUpperCase(), P, 5, 5, 5)).hop).toBe('no_payload_mutation');
  });

  it('labels the two worked examples of the boundary-hash article', () => {
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const of = (p: string, a: string, m: string) => classifyHop(d(sha(p), sha(a), sha(m), p.length, a.length, m.length)).hop;
    const rows = '{"ok":true,"rows":2}';
    expect(of(rows, rows, '{"type":"tool_result","body":{"ok":true,"rows":2}}')).toBe('prompt_builder_wrap');
    expect(of('{"ok":true,"rows":2,"note":"abcdef"}', rows, rows)).toBe('adapter_shrink');
  });
});
