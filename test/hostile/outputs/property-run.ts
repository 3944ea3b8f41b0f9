import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { reportSchema, type Report } from '../../../src/report/schema.js';
import { renderSarif } from '../../../src/report/render/sarif.js';
import { renderText } from '../../../src/report/render/text.js';
import { judgedAlone } from '../../helpers.js';
import { renderMarkdown } from '../../../src/report/render/markdown.js';
import { COMMENT_LIMIT, renderWithinBudget } from '../../../src/report/render/budget.js';
import { runInProcess } from '../audit-cli.js';
import { workflowCommandLines } from './hostile-text.js';

export interface PropertyOutcome {
  readonly code: number;
  readonly report: Report | null;
  /** Every rendering of the report, and stderr. */
  readonly outputs: Record<string, string>;
}

/**
 * Writes one trace file into a fresh folder, audits it in-process and checks
 * the promise: exit 0, 1 or 2; a report that validates; a one-line error
 * without a stack for 2; every renderer runs; no workflow command in any output.
 */
export async function auditOne(name: string, content: Uint8Array | string): Promise<PropertyOutcome> {
  const root = mkdtempSync(join(tmpdir(), 'ata-prop-'));
  try {
    writeFileSync(join(root, name), content);
    const run = await runInProcess(['audit', name, '--format', 'json', '--jobs', '1'], root);
    expect([0, 1, 2]).toContain(run.code);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toMatch(/internal-error/);
    if (run.code === 2) {
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^[a-z-]+: [^\n]+\n$/);
      return { code: run.code, report: null, outputs: { stderr: run.stderr } };
    }
    const report = reportSchema.parse(JSON.parse(run.stdout));
    const outputs: Record<string, string> = {
      json: run.stdout,
      stderr: run.stderr,
      text: renderText(report),
      markdown: renderMarkdown(report, judgedAlone(report)),
      sarif: renderSarif(report),
      comment: renderWithinBudget(report, COMMENT_LIMIT).markdown,
    };
    for (const [format, text] of Object.entries(outputs)) expect(workflowCommandLines(text), format).toEqual([]);
    return { code: run.code, report, outputs };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
