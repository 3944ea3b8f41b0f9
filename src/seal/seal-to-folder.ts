import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ReadLimits } from '../io/limits.js';
import type { SealMode } from './canonical-record.js';
import type { RedactionReceipt, SealKind } from './checkpoint.js';
import { redactToFile } from './redact/redact-file.js';
import { sealAs } from './seal-as.js';
import { fileSink } from './seal-file.js';
import type { UnsealedLine } from './unsealed-lines.js';

export interface SealedInFolder {
  readonly sealedPath: string;
  readonly checkpointPath: string;
  readonly finalDigest: string;
  readonly mode: SealMode;
  readonly kind: SealKind;
  /** Lines of a records seal left out of the chain (listed in the checkpoint too); empty for bytes. */
  readonly unsealedLines: readonly UnsealedLine[];
  /** Values replaced before sealing (receipts in the checkpoint); 0 without redaction. */
  readonly redacted: number;
}

/** Longest file-name stem kept whole (in UTF-8 bytes): `<stem>.sealed.jsonl.seal.json` must stay within 255. */
const MAX_STEM_BYTES = 200;

/**
 * The stem of the sealed file's name: the trace's name without `.gz` and its
 * JSON extension; a stem too long for a file name (a 240-character trace name)
 * is cut at a character boundary and ends in `~` and 8 hex digits of its
 * SHA-256, so two long names never meet (the manifest keeps the original name).
 */
export function sealedStem(path: string): string {
  const name = basename(path).replace(/\.gz$/i, '').replace(/\.(jsonl|ndjson|json)$/i, '');
  if (Buffer.byteLength(name, 'utf8') <= MAX_STEM_BYTES) return name;
  const tag = createHash('sha256').update(name).digest('hex').slice(0, 8);
  let cut = '';
  for (const char of name) {
    if (Buffer.byteLength(cut + char, 'utf8') > MAX_STEM_BYTES - 9) break;
    cut += char;
  }
  return `${cut}~${tag}`;
}

/**
 * Seals one trace into `outDir` as `<name>.sealed.jsonl` with its checkpoint
 * beside it, in the Action's order (sealAs, form `auto`): records in JCS, in
 * the Python form, then bytes; lines that are not records are left out of a
 * records chain and listed. Only a file that cannot be read or written, or
 * that holds nothing to seal, is the seal error.
 */
export async function sealToFolder(
  path: string,
  outDir: string,
  limits: ReadLimits,
  env: Readonly<Record<string, string | undefined>>,
  display = basename(path),
  options: { readonly redact?: boolean } = {},
): Promise<SealedInFolder> {
  const sealedPath = join(outDir, `${sealedStem(path)}.sealed.jsonl`);
  const checkpointPath = `${sealedPath}.seal.json`;
  // The redacted copy is made outside the artifact folder and removed once sealed.
  const work = options.redact ? await mkdtemp(join(tmpdir(), 'ata-redact-')) : null;
  try {
    const redacted = work === null ? null : await redactToFile(path, display, join(work, 'redacted'), limits);
    return await sealInto(redacted?.path ?? path, display, sealedPath, checkpointPath, limits, env, redacted?.receipts ?? []);
  } finally {
    if (work !== null) await rm(work, { recursive: true, force: true });
  }
}

async function sealInto(
  path: string,
  display: string,
  sealedPath: string,
  checkpointPath: string,
  limits: ReadLimits,
  env: Readonly<Record<string, string | undefined>>,
  redactions: readonly RedactionReceipt[],
): Promise<SealedInFolder> {
  const sealed = await sealAs({
    path,
    display,
    sink: () => fileSink(sealedPath, `${display}.sealed.jsonl`),
    checkpointPath,
    checkpointDisplay: `${display}.sealed.jsonl.seal.json`,
    form: 'auto',
    limits,
    env,
    leaveOut: true,
    redactions,
  });
  const { checkpoint, mode, kind } = sealed;
  return { sealedPath, checkpointPath, finalDigest: checkpoint.final_digest, mode, kind, unsealedLines: checkpoint.unsealed_lines ?? [], redacted: redactions.length };
}
