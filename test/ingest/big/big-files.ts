import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { reportSchema, type Report } from '../../../src/report/schema.js';
import { bundleWithPeak } from '../../hostile/audit-cli.js';
import { tempTree } from '../../helpers.js';
import { generate, type BigForm, type BigTruth } from './gen-big.mjs';

/** How many findings of `ruleId` the report counts: those listed plus the "N more … not listed" of the per-file cap. */
export function findingTotal(report: Report, ruleId: string): number {
  let total = 0;
  for (const finding of report.findings) {
    if (finding.ruleId === ruleId) total += 1;
    const more = /^(\d+) more (\S+) finding\(s\) in this file/.exec(finding.message);
    if (more && more[2] === ruleId) total += Number(more[1]) - 1;
  }
  return total;
}

/**
 * Generates `form` at `megabytes`, audits it with the bundled CLI (dist/cli.js) in a child
 * and checks the report against what the generator wrote. Returns the peak RSS in MiB.
 * `catalog: false` for a form that records no catalog (the run state).
 */
export function auditBig(form: BigForm, megabytes: number, options: { readonly catalog?: boolean } = {}): { truth: BigTruth; report: Report; peakMiB: number } {
  const root = tempTree({});
  const name = `big-${form}.json`;
  try {
    const truth = generate(form, join(root, name), megabytes);
    const run = bundleWithPeak(['audit', name, '--format', 'json', '--fail-on', 'never', '--jobs', '1'], root);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = reportSchema.parse(JSON.parse(run.stdout));
    expect(report.summary).toMatchObject({ runs: truth.runs, toolCalls: truth.calls, toolResults: truth.results });
    // A run state records no catalog: its calls to unknown tools cannot be told (catalog-missing instead).
    const unknown = options.catalog === false ? 0 : truth.unknown;
    expect([findingTotal(report, 'unknown-tool'), findingTotal(report, 'orphan-call'), findingTotal(report, 'unstructured-error')]).toEqual([unknown, truth.orphans, truth.errors]);
    return { truth, report, peakMiB: run.peakKiB / 1024 };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
