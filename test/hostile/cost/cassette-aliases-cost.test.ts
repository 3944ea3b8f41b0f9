import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { tempTree } from '../../helpers.js';
import { aliasCassette, aliasSize } from '../../ingest/cassette/alias-cassette.js';
import { bundleWithPeak } from '../audit-cli.js';

/**
 * Issue 35, item 8: a 1.1 MB cassette with 1,000 aliases of a 1 MB body cost 102 s (then
 * 23 s) at the default 512 MiB limits.max-document-bytes, 3,000 aliases 64 s. Its aliases are
 * measured on the parsed nodes before anything is read: the file is refused at once.
 */
describe('the bundled CLI refuses an alias-bomb cassette in seconds and little memory', () => {
  for (const aliases of [1_000, 3_000]) {
    it(`${aliases} aliases of a 1 MB body at the default limit: one malformed-record naming the limit`, () => {
      const root = tempTree({});
      const text = aliasCassette(1024 * 1024, aliases);
      writeFileSync(join(root, 'c.yaml'), text);
      const start = Date.now();
      const run = bundleWithPeak(['audit', 'c.yaml', '--format', 'json', '--jobs', '1'], root);
      const ms = Date.now() - start;
      rmSync(root, { recursive: true, force: true });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(1);
      const report = reportSchema.parse(JSON.parse(run.stdout));
      expect(report.findings.filter((f) => f.ruleId === 'malformed-record').map((f) => `${f.line} ${f.message}`)).toEqual([
        `1 cassette not read: its aliases expand it by ${aliases * aliasSize(1024 * 1024)} bytes, past the limit of 536870912 bytes (limits.max-document-bytes)`,
      ]);
      expect(report.summary.toolCalls).toBe(0);
      // Measured: 1.2–2.7 s and 132–160 MiB peak on a loaded two-core machine, Node start and
      // the YAML parse of 1.1–1.6 MB included (before: 8 s unloaded, 23 s loaded, for 1,000).
      expect(ms).toBeLessThan(6_000);
      expect(run.peakKiB).toBeLessThan(256 * 1024);
    }, 60_000);
  }
});
