import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InputError } from '../../errors.js';
import { sanitizeText } from '../../sanitize/text.js';
import type { ArtifactCheck, ArtifactFile } from './verify-artifact.js';

const SOURCE_NOTES = {
  matches: 'source matches',
  differs: 'SOURCE DIFFERS from source_sha256',
  missing: 'source missing from --sources',
} as const;

/** One line per file: `<status>: <name> (<detail>)`; `broken at index N` for a broken chain. */
function fileLine(file: ArtifactFile): string {
  const status = file.status === 'broken' && file.brokenAt !== null ? `broken at index ${file.brokenAt}` : file.status === 'not-sealed' ? 'not sealed' : file.status;
  const notes = [sanitizeText(file.detail, { maxChars: 300 })];
  if (file.receipts > 0) notes.push(`${file.receipts} redaction receipt(s)`);
  if (file.source === 'refused') notes.push(`source ${file.sourceRefused ?? 'refused'}`);
  else if (file.source !== null) notes.push(SOURCE_NOTES[file.source]);
  return `${status}: ${sanitizeText(file.file, { maxChars: 300 })} (${notes.join('; ')})`;
}

/**
 * The report of `verify <artifact>`: a line per file, the recomputed seal
 * digest and whether it matches the run's, the redaction receipts, and a
 * total line. Deterministic (manifest order), every name sanitized.
 */
export function formatArtifactCheck(check: ArtifactCheck, manifestName: string): string {
  const out = check.files.map(fileLine);
  out.push(`seal digest: ${check.sealDigest || 'none (nothing was sealed)'} (recomputed from ${manifestName})`);
  if (check.digestMatches === true) out.push('seal digest: matches --seal-digest');
  else if (check.digestMatches === false) out.push("seal digest: DOES NOT MATCH --seal-digest: these are not the files the run sealed (or not the run's manifest)");
  else out.push('seal digest: not compared (pass --seal-digest sha256:… from the comment, the check run or the step output)');
  const receipts = check.files.reduce((n, f) => n + f.receipts, 0);
  const redactedFiles = check.files.filter((f) => f.receipts > 0).length;
  if (receipts > 0) out.push(`redactions: ${receipts} value(s) in ${redactedFiles} file(s) replaced before sealing (receipts in the checkpoints)`);
  const counts = new Map<string, number>();
  for (const f of check.files) counts.set(f.status === 'not-sealed' ? 'not sealed' : f.status, (counts.get(f.status === 'not-sealed' ? 'not sealed' : f.status) ?? 0) + 1);
  const parts = [...counts].map(([status, n]) => `${n} ${status}`);
  const sources = check.files.filter((f) => f.source !== null && f.source !== 'matches').length;
  if (check.files.some((f) => f.source !== null)) parts.push(sources === 0 ? 'every source matches' : `${sources} source(s) not matching`);
  const digest = check.digestMatches === null ? 'seal digest not compared' : check.digestMatches ? 'seal digest matches' : 'seal digest does not match';
  out.push(`total: ${check.files.length} file(s): ${parts.join(', ') || 'none'}; ${digest}: ${check.ok ? 'intact' : 'NOT INTACT'}`);
  return `${out.join('\n')}\n`;
}

/**
 * Unpacks an artifact zip (as downloaded from a run) into `into`: regular
 * entries only, names that stay inside the folder, at most `maxBytes` in all.
 */
export async function unpackArtifact(zipPath: string, display: string, into: string, maxBytes: number): Promise<void> {
  const { unzipSync } = await import(/* webpackMode: "eager" */ 'fflate');
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(await readFile(zipPath), {
      filter: (file) => {
        total += file.originalSize;
        if (total > maxBytes) throw new Error(`it unpacks to more than ${maxBytes} bytes`);
        return !file.name.endsWith('/');
      },
    });
  } catch (error) {
    throw new InputError(display, null, 'artifact-unreadable', `${display}: not a readable artifact zip (${error instanceof Error ? error.message : 'unknown error'})`);
  }
  for (const name of Object.keys(entries).sort()) {
    if (name.startsWith('/') || name.includes('\\') || name.split('/').some((part) => part === '..' || part === '')) continue;
    const path = join(into, ...name.split('/'));
    // A name that is both a file and a folder in the zip: the later one is left out (the manifest then says missing).
    await mkdir(dirname(path), { recursive: true })
      .then(() => writeFile(path, entries[name]!, { flag: 'wx' }))
      .catch(() => undefined);
  }
}
