import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAuditPool } from '../../../src/audit/engine/pool.js';
import { resolveConfig } from '../../../src/config/config.js';
import { jsonl, tempDir, tempTree } from '../../helpers.js';

describe('the pool', () => {
  const config = resolveConfig({});
  const files = () => {
    const root = tempTree({
      'a.jsonl': jsonl({ run_id: 'r1', kind: 'tool_call', call_id: 'c1', tool: 'grep' }),
      'b.jsonl': jsonl({ run_id: 'r2', kind: 'tool_call', call_id: 'c2', tool: 'grep' }),
    });
    return ['a.jsonl', 'b.jsonl'].map((name) => ({ path: join(root, name), display: name }));
  };

  it('fails when a worker stops before it reports, after its own share is done, and leaves no folder behind', async () => {
    // A worker script that exits at once: the pool's own thread still audits its share.
    const entry = join(tempDir(), 'exits.mjs');
    writeFileSync(entry, 'process.exit(3);\n');
    const tmpRoot = tempDir();
    await expect(
      runAuditPool(files(), config, { jobs: 2, entry: pathToFileURL(entry), spill: { threshold: 1, tmpRoot } }),
    ).rejects.toThrow('audit worker stopped with exit code 3 before it reported');
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  it('audits no files at all with several jobs (nothing to route, no worker started)', async () => {
    const stored = await runAuditPool([], config, { jobs: 2, entry: pathToFileURL(join(tempDir(), 'never-started.mjs')) });
    try {
      expect(stored.files).toEqual([]);
      expect(stored.store.size).toBe(0);
    } finally {
      stored.store.close();
    }
  });
});
