import { expect } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { tempTree } from '../helpers.js';
import { itCorpus } from '../public-corpus.js';
import { UNREAD_CORPUS, UNREAD_FILES, UNREAD_HEADLINE, unreadFolder } from '../report/unread-folder.js';
import { runBundle } from './run-cli.js';

// Issue 44, through the bundled CLI (dist/cli.js): a folder of eleven real public traces, seven
// not read, with a README and an image the glob also matches (test/report/unread-folder.ts).
const REASONS: Record<string, string> = {
  'unknown-format': 'unknown format: no format reads it',
  unreadable: 'unreadable: no record could be read (its malformed-record or truncated-tail finding says why)',
  'no-records': 'no records came out of it',
};

itCorpus('the verdict leads with the files not read and why, never a bare ✅; they are listed; the README and the image apart; exit 0', UNREAD_CORPUS, () => {
  const root = tempTree(unreadFolder());
  const text = runBundle(['audit', 'traces/**'], root);
  expect([text.code, text.stderr]).toEqual([0, '']);
  const lines = text.stdout.split('\n');
  expect(lines[0]).toBe(UNREAD_HEADLINE);
  expect(lines[1]).toBe('agent-trace-audit 0.1.0: 11 file(s), 4 run(s), 7 tool call(s), 7 result(s)');
  expect(lines.filter((line) => line.startsWith('not read: ') || line.startsWith('not a trace'))).toEqual([
    ...UNREAD_FILES.map(([file, reason, format]) => `not read: traces/${file}: ${REASONS[reason]}${format ? ` (read as ${format})` : ''}`),
    'not a trace (not counted): traces/README.md: text that is not JSON or YAML',
    'not a trace (not counted): traces/diagram.png: a PNG image',
  ]);
  expect(text.stdout).not.toMatch(/^✅/m);

  const json = runBundle(['audit', 'traces/**', '--format', 'json'], root);
  expect([json.code, json.stderr]).toEqual([0, '']);
  const report = reportSchema.parse(JSON.parse(json.stdout));
  expect(report.summary.files).toBe(11);
  expect(report.verdict?.state).toBe('passed');
  expect(report.verdict?.headline).toBe(UNREAD_HEADLINE);
  expect(report.verdict?.coverage.unread).toEqual(UNREAD_FILES.map(([file, reason, format]) => ({ path: `traces/${file}`, reason, ...(format ? { format } : {}) })));
  expect([report.verdict?.coverage.files, report.verdict?.coverage.read, report.verdict?.coverage.partlyRead]).toEqual([11, 4, 0]);
  expect(report.verdict?.coverage.notTraces).toEqual([
    { path: 'traces/README.md', reason: 'text that is not JSON or YAML' },
    { path: 'traces/diagram.png', reason: 'a PNG image' },
  ]);
  // Not traces: no finding on them; the three unknown formats keep their warning.
  expect(report.findings.filter((f) => f.file === 'traces/README.md' || f.file === 'traces/diagram.png')).toEqual([]);
  expect(report.findings.filter((f) => f.ruleId === 'unknown-format').map((f) => f.file)).toEqual(UNREAD_FILES.filter(([, r]) => r === 'unknown-format').map(([file]) => `traces/${file}`));
});

itCorpus('--fail-on-unread (or fail-on-unread: true in the configuration file) exits 1 with ❌ leading; the same line otherwise', UNREAD_CORPUS, () => {
  const failing = UNREAD_HEADLINE.replace(/^⚠️/, '❌');
  const root = tempTree(unreadFolder());
  const flag = runBundle(['audit', 'traces/**', '--fail-on-unread', '-o', 'report.txt'], root);
  expect([flag.code, flag.stderr]).toEqual([1, `${failing}\n`]);
  const configured = tempTree(unreadFolder('fail-on-unread: true\n'));
  const json = runBundle(['audit', 'traces/**', '--format', 'json'], configured);
  expect(json.code).toBe(1);
  expect(reportSchema.parse(JSON.parse(json.stdout)).verdict).toMatchObject({ state: 'failed', headline: failing });
  // Only the files read: every file counted is read, fail-on-unread changes nothing.
  const readOnly = runBundle(['audit', 'traces/claude-code', 'traces/openhands', 'traces/README.md', '--fail-on-unread'], root);
  expect([readOnly.code, readOnly.stdout.split('\n')[0]]).toEqual([0, '✅ no errors (2 notes)']);
});
