import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { claudeCodeSuite, nativeSuite, otelSuite, type SuiteRun } from '../audit/findings/rerun-suite.js';
import { runBundle } from './run-cli.js';

/** One run of the suite in three formats, written into `<root>/<folder>/` as a CI job writes its traces. */
function writeRun(root: string, folder: string, run: SuiteRun): void {
  for (const write of [nativeSuite, claudeCodeSuite, otelSuite]) {
    for (const [name, text] of Object.entries(write(run))) {
      const path = join(root, folder, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
}

describe('the bundled CLI against a base report of the same suite run before', () => {
  it('audit run2/ --baseline run1-report.json: exit 0, no new findings; a new orphan: exit 1, it alone new', () => {
    const root = tempDir();
    writeRun(root, 'run1', { order: 'forward', regression: false });
    const base = runBundle(['audit', 'run1/', '--format', 'json', '-o', 'run1-report.json', '--fail-on', 'never'], root);
    expect(base.code).toBe(0);
    const report = JSON.parse(readFileSync(join(root, 'run1-report.json'), 'utf8')) as { findings: Array<{ ruleId: string; severity: string }> };
    // The suite's own orphans are errors: `gate: all` would fail every run.
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => f.ruleId)).toEqual(['orphan-call', 'orphan-call', 'orphan-call']);

    writeRun(root, 'run2', { order: 'reversed', regression: false });
    const again = runBundle(['audit', 'run2/', '--baseline', 'run1-report.json'], root);
    expect(again.stdout).toContain('no new findings');
    expect(again.code).toBe(0);

    writeRun(root, 'run3', { order: 'reversed', regression: true });
    const regressed = runBundle(['audit', 'run3/', '--baseline', 'run1-report.json', '--format', 'json'], root);
    expect(regressed.code).toBe(1);
    const json = JSON.parse(regressed.stdout) as { findings: Array<{ ruleId: string; fingerprint: string }> };
    const baseFingerprints = new Set((JSON.parse(readFileSync(join(root, 'run1-report.json'), 'utf8')) as { findings: Array<{ fingerprint: string }> }).findings.map((f) => f.fingerprint));
    expect(json.findings.filter((f) => !baseFingerprints.has(f.fingerprint)).map((f) => f.ruleId).sort()).toEqual([
      'continued-while-outstanding',
      'continued-while-outstanding',
      'orphan-call',
      'orphan-call',
      'orphan-call',
    ]);
  });
});
