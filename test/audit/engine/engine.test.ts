import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { materialize, runAudit } from '../../../src/audit/engine/engine.js';
import { resolveConfig } from '../../../src/config/config.js';
import { jsonl, tempDir, tempTree } from '../../helpers.js';

/** A folder for the stores' temporary folders, so a test can see what is left in it (removed after the test). */
const tmpRoot = () => tempDir('ata-engine-test-');

describe('the engine with a finding store', () => {
  const config = resolveConfig({});
  /** A file with many findings: orphan calls, errors, a malformed line. */
  function noisy(runs: number): string {
    const records: unknown[] = [];
    for (let r = 0; r < runs; r += 1) {
      for (let c = 0; c < 12; c += 1) {
        records.push({ run_id: `r${r}`, kind: 'tool_call', call_id: `c${c}`, tool: 'grep', args: { q: c % 3 } });
        if (c % 4 !== 0) records.push({ run_id: `r${r}`, kind: 'tool_result', call_id: `c${c}`, tool: 'grep', ...(c % 5 === 0 ? { error: 'boom' } : {}) });
      }
    }
    return `${jsonl(...records)}not json\n`;
  }

  it('gives the same findings whether or not they spilled', async () => {
    const files = tempTree({ 'a.jsonl': noisy(6), 'b.jsonl': noisy(3) });
    const inputs = ['a.jsonl', 'b.jsonl'].map((name) => ({ path: join(files, name), display: name }));
    const root = tmpRoot();
    const whole = materialize(await runAudit(inputs, config));
    expect(whole.findings.length).toBeGreaterThan(20);
    const stored = await runAudit(inputs, config, { spill: { threshold: 3, tmpRoot: root } });
    try {
      expect(stored.store.spilled).toBe(true);
      expect(JSON.stringify(stored.store.toArray())).toBe(JSON.stringify(whole.findings));
    } finally {
      stored.store.close();
    }
    expect(readdirSync(root)).toEqual([]);
    const spilledAndRead = materialize(await runAudit(inputs, config, { spill: { threshold: 3, tmpRoot: root } }));
    expect(JSON.stringify(spilledAndRead)).toBe(JSON.stringify(whole));
    expect(readdirSync(root)).toEqual([]);
  });

  it('removes the spilled chunks when the audit fails half-way', async () => {
    const files = tempTree({ 'a.jsonl': noisy(6) });
    const root = tmpRoot();
    // a.jsonl spills; z.jsonl (audited after it) cannot be opened.
    const inputs = [
      { path: join(files, 'a.jsonl'), display: 'a.jsonl' },
      { path: join(files, 'missing.jsonl'), display: 'z.jsonl' },
    ];
    await expect(runAudit(inputs, config, { spill: { threshold: 2, tmpRoot: root } })).rejects.toThrow();
    expect(readdirSync(root)).toEqual([]);
  });
});
