import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from '../logger.js';
import { renderHtml } from '../report/html/render.js';
import { writeJsonFile } from '../report/render/json.js';
import { renderSarif, SARIF_MAX_RESULTS } from '../report/render/sarif.js';
import type { RunContext } from '../github/context.js';
import type { ActionInputs } from '../github/inputs.js';
import { REPORT_FILE } from '../github/artifacts/stored-report.js';
import type { Sourced } from './report-source.js';

/** The HTML report in the artifact. */
export const HTML_REPORT_FILE = 'report.html';

/**
 * Writes report.json and report.html into a new folder of the runner's temp
 * directory (the artifact's), and the SARIF file where the sarif-file input
 * says (its output set), with each result's baselineState when the judged report
 * was compared with the base branch. Returns the folder and the report.json path.
 */
export async function writeReportFiles(
  inputs: ActionInputs,
  ctx: RunContext,
  sourced: Sourced,
  logger: Logger,
  setOutput: (name: string, value: string) => void,
): Promise<{ outDir: string; reportPath: string }> {
  const { report } = sourced;
  const outDir = await mkdtemp(join(ctx.tempDir || tmpdir(), 'agent-trace-audit-'));
  const reportPath = join(outDir, REPORT_FILE);
  // In pieces: the report is never one string.
  await writeJsonFile(report, reportPath);
  await writeFile(join(outDir, HTML_REPORT_FILE), renderHtml(report, sourced.timelines ?? []));
  if (inputs.sarifFile !== '') {
    const sarifPath = resolve(ctx.workspace, inputs.sarifFile);
    await mkdir(dirname(sarifPath), { recursive: true });
    await writeFile(sarifPath, renderSarif(report));
    if (report.findings.length > SARIF_MAX_RESULTS) {
      logger.warning(`the SARIF file holds the ${SARIF_MAX_RESULTS} most severe of ${report.findings.length} findings (code scanning keeps ${SARIF_MAX_RESULTS} results per run and rejects more than 25,000); report.json has them all`);
    }
    setOutput('sarif-file', sarifPath);
  }
  return { outDir, reportPath };
}
