import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditInput } from '../model/audit.js';
import type { Logger } from '../logger.js';
import type { Report } from '../report/schema.js';
import { firstLine } from '../github/artifacts/artifact.js';
import { sealDigestOf } from '../seal/manifest.js';

/** Files that could not be sealed named in the one warning; the rest go to the log. */
const FAILED_NAMED = 3;

/** What sealing one trace file gives back (the seal module's contract). */
export interface SealedFile {
  readonly sealedPath: string;
  readonly checkpointPath: string;
  readonly finalDigest: string;
  /** Lines left out of a records chain because they are not records (line from 1, reason); none when absent. */
  readonly unsealedLines?: ReadonlyArray<{ readonly line: number; readonly reason: string }>;
  /** Values replaced before sealing (one receipt each in the checkpoint). */
  readonly redacted?: number;
}

/** One line of seal-manifest.json: a sealed file, or one that could not be sealed and why. */
type ManifestEntry =
  | { file: string; finalDigest: string; sealed: string; checkpoint: string; unsealedLines?: Array<{ line: number; reason: string }>; redacted?: number }
  | { file: string; error: string };

/** Seals `path` (chain + checkpoint) into files under `outDir`; `display` names it in messages. */
export type SealFile = (path: string, outDir: string, display: string, options: { readonly redact: boolean }) => Promise<SealedFile>;

export interface SealSummary {
  /** sha256 over every file's final digest and name, in name order; '' when nothing was sealed. */
  readonly digest: string;
  readonly sealed: number;
  /** Values replaced before sealing, and in how many files (both 0 without redaction). */
  readonly redactedValues: number;
  readonly redactedFiles: number;
}

/**
 * Seals each collected trace into `outDir/sealed/<n>/` and writes
 * `seal-manifest.json`, which lists every collected file: display name → final
 * digest, sealed and checkpoint file names relative to outDir, and the lines
 * left out of its chain (`unsealedLines`), or the `error` that kept it from
 * being sealed. The files that cannot be sealed are one warning for the step,
 * however many there are; the seal digest covers the sealed files.
 */
export async function sealInputs(inputs: readonly AuditInput[], outDir: string, sealFile: SealFile, logger: Logger, redact = false): Promise<SealSummary> {
  const entries: ManifestEntry[] = [];
  let sealed = 0;
  let redactedValues = 0;
  let redactedFiles = 0;
  const sorted = [...inputs].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  const failed: string[] = [];
  for (const [index, input] of sorted.entries()) {
    const dir = join(outDir, 'sealed', String(index + 1).padStart(4, '0'));
    try {
      await mkdir(dir, { recursive: true });
      const result = await sealFile(input.path, dir, input.display, { redact });
      const unsealed = result.unsealedLines ?? [];
      const redacted = result.redacted ?? 0;
      entries.push({
        file: input.display,
        finalDigest: result.finalDigest,
        sealed: rel(outDir, result.sealedPath),
        checkpoint: rel(outDir, result.checkpointPath),
        ...(unsealed.length > 0 ? { unsealedLines: unsealed.map(({ line, reason }) => ({ line, reason })) } : {}),
        ...(redacted > 0 ? { redacted } : {}),
      });
      sealed += 1;
      redactedValues += redacted;
      if (redacted > 0) redactedFiles += 1;
      if (unsealed.length > 0) {
        logger.info(`${input.display}: ${unsealed.length} line(s) are not records, left out of its seal and listed in seal-manifest.json: line(s) ${unsealed.map((u) => u.line).join(', ')}`);
      }
    } catch (error) {
      failed.push(`${input.display}: ${firstLine(error)}`);
      entries.push({ file: input.display, error: firstLine(error) });
    }
  }
  // One warning for the step, not one per file (each would take an annotation slot); every file in the log.
  if (failed.length > 0) {
    const shown = failed.slice(0, FAILED_NAMED);
    const more = failed.length > shown.length ? `; and ${failed.length - shown.length} more (listed in the log)` : '';
    logger.warning(`${failed.length} of ${sorted.length} file(s) could not be sealed: ${shown.join('; ')}${more}`);
    for (const line of failed.slice(FAILED_NAMED)) logger.info(`could not seal ${line}`);
  }
  if (entries.length === 0) return { digest: '', sealed: 0, redactedValues: 0, redactedFiles: 0 };
  const redaction = { enabled: redact, values: redactedValues, files: redactedFiles };
  await writeFile(join(outDir, 'seal-manifest.json'), `${JSON.stringify({ version: 1, redaction, files: entries }, null, 2)}\n`);
  if (redactedValues > 0) logger.info(`redacted before sealing: ${redactedValues} value(s) in ${redactedFiles} file(s); one receipt each in the checkpoints`);
  const digest = sealDigestOf(entries.filter((e): e is Extract<ManifestEntry, { finalDigest: string }> => 'finalDigest' in e));
  return { digest, sealed, redactedValues, redactedFiles };
}

function rel(root: string, path: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/**
 * The Action's seal step: redaction as configured (the warning when it is off
 * and the audit found secrets), every trace sealed, and what the seal line of
 * the comment and check run shows.
 */
export async function sealStep(
  inputs: readonly AuditInput[],
  outDir: string,
  sealFile: SealFile,
  logger: Logger,
  options: { readonly redact: boolean; readonly report: Report },
): Promise<{ sealDigest: string; sealRedacted: { values: number; files: number } | undefined }> {
  if (!options.redact) {
    const secrets = options.report.findings.filter((f) => f.ruleId === 'secret-in-trace');
    const files = new Set(secrets.map((f) => f.file)).size;
    if (secrets.length > 0) logger.warning(`seal-redact is false: ${secrets.length} secret(s) the audit found in ${files} file(s) are sealed as they are and uploaded in the artifact`);
  }
  const sealed = await sealInputs(inputs, outDir, sealFile, logger, options.redact);
  return { sealDigest: sealed.digest, sealRedacted: options.redact ? { values: sealed.redactedValues, files: sealed.redactedFiles } : undefined };
}

/** The seal line's extra facts: the run to download from (once uploaded) and the redaction counts. */
export function sealLinks(runId: number, uploaded: unknown, sealRedacted: { values: number; files: number } | undefined): { runId?: number; sealRedacted?: { values: number; files: number } } {
  return { ...(uploaded && runId ? { runId } : {}), ...(sealRedacted ? { sealRedacted } : {}) };
}
