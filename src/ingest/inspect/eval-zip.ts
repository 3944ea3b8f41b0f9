import type { UnzipFileInfo } from 'fflate';
import { limitText } from '../../io/limits.js';

/** What was read from an `.eval` archive: its JSON entries, and why others were skipped. */
export interface EvalArchive {
  readonly header: unknown;
  /** Sample entries in name order. */
  readonly samples: ReadonlyArray<{ readonly name: string; readonly value: unknown }>;
  readonly problems: readonly string[];
}

const WANTED = /^(header\.json|samples\/[^/]+\.json)$/;

/** Zip archives start with a local file header; an `.eval` log names its entries early. */
export function looksLikeEvalZip(head: Buffer): boolean {
  if (head.length < 4 || head.readUInt32LE(0) !== 0x04034b50) return false;
  const names = head.subarray(0, 64 * 1024).toString('latin1');
  return names.includes('header.json') || names.includes('_journal/start.json') || /samples\/[^/]+_epoch_\d+\.json/.test(names);
}

/**
 * Reads the header and sample entries of an Inspect `.eval` zip. fflate
 * inflates each entry into a buffer of its declared size, so the cap on
 * declared sizes (per entry and in total) bounds memory even for an archive
 * that lies about them; entries over the cap are skipped and reported.
 */
export async function readEvalArchive(bytes: Uint8Array, maxBytes: number): Promise<EvalArchive> {
  // fflate is loaded for an .eval archive only (eager: kept in the bundle, evaluated here; see scripts/build.mjs).
  const { unzipSync } = await import(/* webpackMode: "eager" */ 'fflate');
  const problems: string[] = [];
  let total = 0;
  const filter = (file: UnzipFileInfo): boolean => {
    if (!WANTED.test(file.name)) return false;
    if (file.originalSize > maxBytes || total + file.originalSize > maxBytes) {
      problems.push(`zip entry "${file.name}" inflates to ${file.originalSize} bytes, over the ${limitText('maxDocumentBytes', maxBytes)}: skipped`);
      return false;
    }
    total += file.originalSize;
    return true;
  };
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter });
  } catch (error) {
    return { header: undefined, samples: [], problems: [`not a readable zip archive (${error instanceof Error ? error.message : 'unknown error'})`] };
  }
  const decode = (name: string): unknown => {
    try {
      return JSON.parse(Buffer.from(files[name]!).toString('utf8')) as unknown;
    } catch {
      problems.push(`zip entry "${name}" is not JSON`);
      return undefined;
    }
  };
  const header = Object.prototype.hasOwnProperty.call(files, 'header.json') ? decode('header.json') : undefined;
  const samples = Object.keys(files)
    .filter((name) => name.startsWith('samples/'))
    .sort(bySampleOrder)
    .map((name) => ({ name, value: decode(name) }));
  return { header, samples, problems };
}

/** `samples/<id>_epoch_<n>.json`: by id, then epoch (numerically where they are numbers). */
function bySampleOrder(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
