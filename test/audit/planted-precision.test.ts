import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/audit/rules/index.js';
import { auditFiles } from '../helpers.js';
import { plantedSuite } from './planted/planted-suite.js';

/**
 * Precision and recall of every rule on a simulated suite with planted defects
 * (retry storms after errors, a retry after a timeout, writes between reads, call
 * ids reused within and across runs, orphans, stalls, unflagged tracebacks …).
 * The truth is what the generator planted (planted-suite.ts), never the audit's output.
 */
describe('rules on planted traces', () => {
  it('every rule has precision and recall >= 0.95 (here: exactly the planted findings)', async () => {
    const suite = plantedSuite(10);
    const audit = await auditFiles(suite.files);
    const key = (rule: string, file: string, line: number) => `${rule}\u0000${file}\u0000${line}`;
    const expected = new Map<string, number>();
    for (const p of suite.truth) expected.set(key(p.rule, p.file, p.line), (expected.get(key(p.rule, p.file, p.line)) ?? 0) + 1);
    const stats = new Map<string, { tp: number; fp: number; fn: number }>(RULES.map((r) => [r.meta.id, { tp: 0, fp: 0, fn: 0 }]));
    const left = new Map(expected);
    for (const f of audit.findings) {
      const k = key(f.ruleId, f.file, f.line);
      const s = stats.get(f.ruleId)!;
      if ((left.get(k) ?? 0) > 0) {
        s.tp += 1;
        left.set(k, left.get(k)! - 1);
      } else s.fp += 1;
    }
    for (const [k, n] of left) if (n > 0) stats.get(k.split('\u0000')[0]!)!.fn += n;

    const table = [...stats].filter(([, s]) => s.tp + s.fp + s.fn > 0).map(([rule, s]) => ({ rule, ...s, precision: s.tp / (s.tp + s.fp), recall: s.tp / (s.tp + s.fn) }));
    for (const row of table) {
      expect(row.precision, `${row.rule} precision (${row.tp} true, ${row.fp} false)`).toBeGreaterThanOrEqual(0.95);
      expect(row.recall, `${row.rule} recall (${row.tp} found, ${row.fn} missed)`).toBeGreaterThanOrEqual(0.95);
    }
    // What was planted, per rule: 10 files, each scenario once per file.
    expect(Object.fromEntries(table.map((r) => [r.rule, r.tp]))).toEqual({
      'unknown-tool': 10,
      'unused-tool': 20,
      'orphan-call': 10,
      'unmatched-result': 10,
      'duplicate-call-id': 10,
      'retry-storm': 10,
      'budget-miss': 10,
      'continued-while-outstanding': 10,
      'late-result': 10,
      'llm-stall': 10,
      'non-determinism': 10,
      'redundant-call': 10,
      'stack-trace-in-result': 10,
      'internal-detail-leak': 10,
      'unstructured-error': 10,
      'slow-recovery': 10,
    });
    expect(audit.findings.length).toBe(suite.truth.length);
  });
});
