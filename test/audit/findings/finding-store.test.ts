import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FindingStore, MAX_CHUNK_FILES, type FindingHandoff } from '../../../src/audit/findings/finding-store.js';
import { compareFindings } from '../../../src/audit/findings/findings.js';
import type { Finding } from '../../../src/model/finding.js';
import { tempDir } from '../../helpers.js';

/** A folder for the stores' temporary folders, so a test can see what is left in it (removed after the test). */
const tmpRoot = () => tempDir('ata-store-test-');

/**
 * Findings from small alphabets, so many compare equal on every sort key while
 * differing in tool and severity: the merge must keep them in the order added.
 */
const finding: fc.Arbitrary<Finding> = fc.record({
  ruleId: fc.constantFrom('orphan-result', 'retry-storm'),
  severity: fc.constantFrom('error', 'warning', 'note'),
  message: fc.constantFrom('m', 'é ü', 'line\nbreak \u2028 \ud800'),
  file: fc.constantFrom('a.jsonl', 'dir/é.jsonl'),
  line: fc.integer({ min: 0, max: 2 }),
  runId: fc.constantFrom(null, '', 'r1'),
  callId: fc.constantFrom(null, 'c1'),
  tool: fc.constantFrom(null, 'grep', 'ls'),
  fingerprint: fc.constantFrom('0000000000000000', 'ffffffffffffffff'),
});

/** What the store must give: a stable sort of everything added, as bytes. */
function expected(findings: readonly Finding[]): string {
  return JSON.stringify([...findings].sort(compareFindings));
}

describe('FindingStore', () => {
  it('spills and merges in exactly the order of a stable in-memory sort (property, fixed seed)', () => {
    const root = tmpRoot();
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 200 }), fc.integer({ min: 1, max: 9 }), (findings, threshold) => {
        const store = new FindingStore({ threshold, tmpRoot: root });
        try {
          for (const f of findings) store.add(f);
          expect(store.spilled).toBe(findings.length > threshold);
          expect(JSON.stringify(store.toArray())).toBe(expected(findings));
          // A second read gives the same (the chunk files are read again).
          expect(JSON.stringify([...store])).toBe(expected(findings));
          expect(store.size).toBe(findings.length);
          expect(store.counts).toEqual({
            error: findings.filter((f) => f.severity === 'error').length,
            warning: findings.filter((f) => f.severity === 'warning').length,
            note: findings.filter((f) => f.severity === 'note').length,
          });
          expect([...store.ruleIds].sort()).toEqual([...new Set(findings.map((f) => f.ruleId))].sort());
        } finally {
          store.close();
        }
        expect(readdirSync(root)).toEqual([]);
      }),
      { seed: 20260907, numRuns: 300 },
    );
  });

  it('adopts other stores (workers) after what it holds, in order, spilled or not (property, fixed seed)', () => {
    const root = tmpRoot();
    fc.assert(
      fc.property(
        fc.array(fc.array(finding, { maxLength: 40 }), { maxLength: 4 }),
        fc.array(finding, { maxLength: 20 }),
        fc.array(finding, { maxLength: 20 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        (parts, before, after, partThreshold, mainThreshold) => {
          const handoffs: FindingHandoff[] = parts.map((part) => {
            const store = new FindingStore({ threshold: partThreshold, tmpRoot: root });
            for (const f of part) store.add(f);
            // postMessage clones the handoff: so does this.
            return structuredClone(store.handoff());
          });
          const main = new FindingStore({ threshold: mainThreshold, tmpRoot: root });
          try {
            for (const f of before) main.add(f);
            main.adopt(handoffs);
            for (const f of after) main.add(f);
            const all = [...before, ...parts.flat(), ...after];
            expect(JSON.stringify(main.toArray())).toBe(expected(all));
            expect(main.size).toBe(all.length);
            expect(main.counts.error + main.counts.warning + main.counts.note).toBe(all.length);
          } finally {
            main.close();
          }
          expect(readdirSync(root)).toEqual([]);
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  it('merges its chunk files into one when there are too many (a threshold of 1)', () => {
    const root = tmpRoot();
    const findings = fc.sample(finding, { seed: 3, numRuns: 300 });
    const store = new FindingStore({ threshold: 1, tmpRoot: root });
    try {
      for (const f of findings) store.add(f);
      const [folder] = store.folders;
      expect(findings.length).toBeGreaterThan(MAX_CHUNK_FILES);
      expect(readdirSync(folder!).length).toBeLessThanOrEqual(MAX_CHUNK_FILES + 1);
      expect(JSON.stringify(store.toArray())).toBe(expected(findings));
    } finally {
      store.close();
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it('keeps its chunks in a private folder (mode 0700) and removes it when closed', () => {
    const root = tmpRoot();
    const store = new FindingStore({ threshold: 2, tmpRoot: root });
    for (const f of fc.sample(finding, { seed: 1, numRuns: 10 })) store.add(f);
    const [folder] = store.folders;
    expect(folder).toBeDefined();
    if (process.platform !== 'win32') expect(statSync(folder!).mode & 0o777).toBe(0o700);
    expect(readdirSync(folder!).length).toBeGreaterThan(0);
    store.close();
    expect(existsSync(folder!)).toBe(false);
    store.close();
    expect(() => store.toArray()).toThrow(/closed/);
    expect(() => store.add(fc.sample(finding, { seed: 2, numRuns: 1 })[0]!)).toThrow(/closed/);
  });

  it('makes no folder while everything fits in memory', () => {
    const root = tmpRoot();
    const store = new FindingStore({ threshold: 100, tmpRoot: root });
    for (const f of fc.sample(finding, { seed: 5, numRuns: 100 })) store.add(f);
    expect(store.spilled).toBe(false);
    expect(readdirSync(root)).toEqual([]);
    store.close();
  });

  it('refuses to change while it is being read, and closes its files when a read stops early', () => {
    const root = tmpRoot();
    const findings = fc.sample(finding, { seed: 9, numRuns: 30 });
    const store = new FindingStore({ threshold: 4, tmpRoot: root });
    try {
      for (const f of findings) store.add(f);
      const reading = store[Symbol.iterator]();
      reading.next();
      expect(() => store.add(findings[0]!)).toThrow(/being read/);
      reading.return();
      store.add(findings[0]!);
      expect(store.size).toBe(31);
    } finally {
      store.close();
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it('says so when a chunk file was cut short', () => {
    const root = tmpRoot();
    const store = new FindingStore({ threshold: 2, tmpRoot: root });
    try {
      for (const f of fc.sample(finding, { seed: 11, numRuns: 5 })) store.add(f);
      const [folder] = store.folders;
      const chunk = join(folder!, readdirSync(folder!)[0]!);
      writeFileSync(chunk, '{"ruleId":"x"');
      expect(() => store.toArray()).toThrow(/middle of a line/);
    } finally {
      store.close();
    }
    expect(readdirSync(root)).toEqual([]);
  });
});
