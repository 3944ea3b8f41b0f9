import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';

/**
 * Unpacks a downloaded artifact zip (already checked against its digest) with a
 * cap on the bytes written: each entry is inflated as a stream and the count is of
 * the bytes that come out (never the sizes the zip declares), so a zip bomb stops
 * at the cap instead of filling the disk. Entries are found through the central
 * directory; names that would leave the folder are refused. A name that is both
 * a file and a folder (`a.jsonl` and `a.jsonl/b.jsonl`), or a file named twice, is a
 * conflict: that file entry is skipped and named in `conflicts`, the rest unpacked.
 */

export type UnzipOutcome =
  | { readonly ok: true; readonly files: number; readonly bytes: number; readonly refused: readonly string[]; readonly conflicts: readonly string[] }
  | { readonly ok: false; readonly reason: string };

interface Entry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_MAX_SEARCH = 22 + 0xffff;

class OverCap extends Error {}

/** Unpacks `zipPath` into `dest`; stops and returns not-ok once more than `maxBytes` would be written. */
export async function unzipCapped(zipPath: string, dest: string, maxBytes: number): Promise<UnzipOutcome> {
  let entries: Entry[];
  try {
    entries = await centralDirectory(zipPath);
  } catch (error) {
    return { ok: false, reason: `not a readable zip (${error instanceof Error ? error.message : 'unknown error'})` };
  }
  let bytes = 0;
  let files = 0;
  const refused: string[] = [];
  const placed: Array<{ entry: Entry; rel: string[] }> = [];
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const rel = safeRelative(entry.name);
    if (rel === null) refused.push(entry.name);
    else placed.push({ entry, rel });
  }
  const conflicts = conflictingEntries(placed, entries);
  for (const { entry, rel } of placed) {
    if (conflicts.has(entry)) continue;
    if (entry.method !== 0 && entry.method !== 8) return { ok: false, reason: `entry ${JSON.stringify(entry.name)} uses compression method ${entry.method}` };
    const start = await dataStart(zipPath, entry);
    const path = join(dest, ...rel);
    try {
      await mkdir(dirname(path), { recursive: true });
    } catch (error) {
      // Still a file where a folder is needed (names that differ only in ways the file system folds).
      if (isPlaceConflict(error)) {
        conflicts.add(entry);
        continue;
      }
      throw error;
    }
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > maxBytes) done(new OverCap());
        else done(null, chunk);
      },
    });
    // An empty entry reads nothing (a read stream's `end` is inclusive).
    const source = entry.compressedSize === 0 ? Readable.from([]) : createReadStream(zipPath, { start, end: start + entry.compressedSize - 1 });
    try {
      if (entry.method === 8) await pipeline(source, createInflateRaw(), counter, createWriteStream(path));
      else await pipeline(source, counter, createWriteStream(path));
    } catch (error) {
      if (error instanceof OverCap) return { ok: false, reason: `it unpacks to more than ${maxBytes} bytes` };
      if (isPlaceConflict(error)) {
        conflicts.add(entry);
        continue;
      }
      return { ok: false, reason: `entry ${JSON.stringify(entry.name)} cannot be unpacked (${error instanceof Error ? error.message : 'unknown error'})` };
    }
    files += 1;
  }
  const conflicting = placed.filter((p) => conflicts.has(p.entry)).map((p) => p.entry.name);
  return { ok: true, files, bytes, refused, conflicts: conflicting };
}

/**
 * The file entries that cannot be placed: a file whose path is also a folder of another
 * entry (an explicit `name/` entry or a file under it), and every later file of a path
 * already taken. Paths are compared as the segments they unpack to (`a//b` is `a/b`).
 */
function conflictingEntries(placed: ReadonlyArray<{ entry: Entry; rel: string[] }>, entries: readonly Entry[]): Set<Entry> {
  const folders = new Set<string>();
  for (const { rel } of placed) for (let i = 1; i < rel.length; i += 1) folders.add(rel.slice(0, i).join('/'));
  for (const entry of entries) {
    if (!entry.name.endsWith('/')) continue;
    const rel = safeRelative(entry.name);
    if (rel !== null) for (let i = 1; i <= rel.length; i += 1) folders.add(rel.slice(0, i).join('/'));
  }
  const taken = new Set<string>();
  const out = new Set<Entry>();
  for (const { entry, rel } of placed) {
    const key = rel.join('/');
    if (folders.has(key) || taken.has(key)) out.add(entry);
    taken.add(key);
  }
  return out;
}

/** A file system error that means the entry's place is taken by a file or a folder. */
function isPlaceConflict(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** The path segments of an entry name inside the folder, or null when it would leave it (absolute, `..`, NUL). */
function safeRelative(name: string): string[] | null {
  if (name.includes('\0') || name.startsWith('/') || /^[A-Za-z]:[\\/]/.test(name)) return null;
  const parts = name.split(/[\\/]/).filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) return null;
  return parts;
}

async function centralDirectory(zipPath: string): Promise<Entry[]> {
  const handle = await open(zipPath, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, EOCD_MAX_SEARCH);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let at = -1;
    for (let i = tailLength - 22; i >= 0; i -= 1) {
      if (tail.readUInt32LE(i) === EOCD) {
        at = i;
        break;
      }
    }
    if (at === -1) throw new Error('no end of central directory');
    const count = tail.readUInt16LE(at + 10);
    const cdSize = tail.readUInt32LE(at + 12);
    const cdOffset = tail.readUInt32LE(at + 16);
    if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new Error('ZIP64 archives are not read');
    if (cdOffset + cdSize > size) throw new Error('central directory past the end of the file');
    const cd = Buffer.alloc(cdSize);
    await handle.read(cd, 0, cdSize, cdOffset);
    const entries: Entry[] = [];
    let p = 0;
    for (let i = 0; i < count; i += 1) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL) throw new Error('bad central directory entry');
      const nameLength = cd.readUInt16LE(p + 28);
      const extraLength = cd.readUInt16LE(p + 30);
      const commentLength = cd.readUInt16LE(p + 32);
      entries.push({
        method: cd.readUInt16LE(p + 10),
        compressedSize: cd.readUInt32LE(p + 20),
        localOffset: cd.readUInt32LE(p + 42),
        name: cd.toString('utf8', p + 46, p + 46 + nameLength),
      });
      p += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/** Where an entry's data starts: after its local header, whose name and extra field lengths may differ from the central ones. */
async function dataStart(zipPath: string, entry: Entry): Promise<number> {
  const handle = await open(zipPath, 'r');
  try {
    const header = Buffer.alloc(30);
    const { bytesRead } = await handle.read(header, 0, 30, entry.localOffset);
    if (bytesRead < 30 || header.readUInt32LE(0) !== LOCAL) throw new Error(`bad local header for ${JSON.stringify(entry.name)}`);
    return entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  } finally {
    await handle.close();
  }
}
