import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { POOL_MIN_BYTES, poolMinBytesFromEnv } from '../../../src/audit/engine/pool-plan.js';
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
      runAuditPool(files(), config, { jobs: 2, entry: pathToFileURL(entry), poolMinBytes: 0, spill: { threshold: 1, tmpRoot } }),
    ).rejects.toThrow('audit worker stopped with exit code 3 before it reported');
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  it('starts no worker below poolMinBytes of input in all (default POOL_MIN_BYTES), and from it on does', async () => {
    // The worker script exits at once: a pool that starts it fails, one that does not gives the report.
    const entry = pathToFileURL(join(tempDir(), 'exits.mjs'));
    writeFileSync(entry, 'process.exit(3);\n');
    const inputs = files();
    const bytes = inputs.reduce((sum, { path }) => sum + statSync(path).size, 0);
    expect(POOL_MIN_BYTES).toBe(48 * 1024 * 1024);
    for (const options of [{}, { poolMinBytes: bytes + 1 }]) {
      const stored = await runAuditPool(inputs, config, { jobs: 2, entry, ...options });
      try {
        expect(stored.files.map((f) => f.path)).toEqual(['a.jsonl', 'b.jsonl']);
      } finally {
        stored.store.close();
      }
    }
    await expect(runAuditPool(inputs, config, { jobs: 2, entry, poolMinBytes: bytes })).rejects.toThrow('audit worker stopped with exit code 3 before it reported');
    // One file of at least poolMinBytes is routed over the threads (its workers are started too).
    await expect(runAuditPool(inputs.slice(0, 1), config, { jobs: 2, entry, poolMinBytes: 1, routeMinBytes: 1 })).rejects.toThrow(/exit code 3/);
  });

  it('reads AGENT_TRACE_AUDIT_POOL_MIN_BYTES: unset or empty is the default, a whole number of bytes, anything else refused', () => {
    expect(poolMinBytesFromEnv({})).toBeUndefined();
    expect(poolMinBytesFromEnv({ AGENT_TRACE_AUDIT_POOL_MIN_BYTES: '' })).toBeUndefined();
    expect(poolMinBytesFromEnv({ AGENT_TRACE_AUDIT_POOL_MIN_BYTES: '0' })).toBe(0);
    expect(poolMinBytesFromEnv({ AGENT_TRACE_AUDIT_POOL_MIN_BYTES: '1048576' })).toBe(1_048_576);
    for (const raw of ['-1', '1e6', '12 MiB', '0x10', '99999999999999999999']) {
      expect(() => poolMinBytesFromEnv({ AGENT_TRACE_AUDIT_POOL_MIN_BYTES: raw })).toThrow(`AGENT_TRACE_AUDIT_POOL_MIN_BYTES must be a whole number of bytes (0 or more), not ${JSON.stringify(raw)}`);
    }
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
