import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { readInputFile, type Confinement } from '../io/confine.js';
import { sanitizeText } from '../sanitize/text.js';

/** The name of the manifest the Action writes beside the sealed traces. */
export const SEAL_MANIFEST = 'seal-manifest.json';
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

const sealedEntry = z.object({
  file: z.string().min(1).max(4096),
  finalDigest: hex64,
  sealed: z.string().min(1).max(4096),
  checkpoint: z.string().min(1).max(4096),
  redacted: z.number().int().min(0).optional(),
});
const failedEntry = z.object({ file: z.string().min(1).max(4096), error: z.string().max(4096) });

/** seal-manifest.json as the Action writes it (src/action/seal-step.ts); unknown fields are allowed (later versions add some). */
export const manifestSchema = z.object({
  version: z.literal(1),
  redaction: z.object({ enabled: z.boolean(), values: z.number().int().min(0), files: z.number().int().min(0) }).optional(),
  files: z.array(z.union([sealedEntry, failedEntry])).max(1_000_000),
});
export type SealManifest = z.infer<typeof manifestSchema>;
export type SealedEntry = z.infer<typeof sealedEntry>;

export function isSealedEntry(entry: SealManifest['files'][number]): entry is SealedEntry {
  return 'finalDigest' in entry;
}

/**
 * The seal digest of a run: SHA-256 over `<final digest>  <name>\n` of every
 * sealed file, in the manifest's order (file name order), as `sha256:<hex>`;
 * '' when nothing was sealed. The one definition: the Action's seal step and
 * `verify` both call it.
 */
export function sealDigestOf(files: ReadonlyArray<{ readonly file: string; readonly finalDigest: string }>): string {
  if (files.length === 0) return '';
  const hash = createHash('sha256');
  for (const { file, finalDigest } of files) hash.update(`${finalDigest}  ${file}\n`);
  return `sha256:${hash.digest('hex')}`;
}

/** Reads and checks a seal manifest; anything else is an InputError (exit 2). */
export async function readManifest(path: string, display: string, within: Confinement = { root: null }): Promise<SealManifest> {
  // The workspace rule (src/io/confine.ts), its size checked before a byte is read: a device or FIFO is refused at once.
  const tooLarge = () => new InputError(display, null, 'manifest-invalid', `${display}: a seal manifest is never more than ${MAX_MANIFEST_BYTES} bytes long`);
  const bytes = readInputFile(path, display, within, MAX_MANIFEST_BYTES, tooLarge);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InputError(display, null, 'manifest-invalid', `${display}: the seal manifest is not JSON`);
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length === 0 ? 'the top level' : issue.path.map(String).join('.');
    throw new InputError(display, null, 'manifest-invalid', `${display}: not a seal manifest of version 1: ${sanitizeText(`${where}: ${issue.message}`)}`);
  }
  return parsed.data;
}
