import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InputError } from '../errors.js';
import { noSuchPath, systemReason, unreadable } from './file-errors.js';

/**
 * The one rule for every path read from a workspace (trace files, folders and glob
 * bases, the configuration file, scope files, checkpoints, reports): the WHOLE path
 * is resolved to its real path (a symlinked folder anywhere on the way counts, not
 * only the last part) and refused when it leaves `root`, lands inside a `.git`
 * folder, or is not what the reader needs (a regular file, or a folder). Every
 * refusal is one reason in words; the target of a symlink is never named.
 */
export interface Confinement {
  /** Real path of the folder the path must stay in; null: a path the user named outside it (only its type is checked). */
  readonly root: string | null;
  /** True when the user named a `.git` path explicitly (CLI): it is read like any other. */
  readonly gitAllowed?: boolean;
  /** How the root is named in a refusal: `the workspace` unless told. */
  readonly rootName?: string;
}

export type Verdict = { readonly real: string; readonly refused?: undefined } | { readonly refused: string; readonly real?: undefined; readonly missing?: true };

/** The real path of a folder that must exist (the workspace, the working folder). */
export function realFolder(path: string): string {
  return realpathSync(resolve(path));
}

/**
 * The confinement for a path the user typed on the command line: inside the working
 * folder it must stay inside it (a symlink committed to the repository cannot lead out);
 * a path typed outside it is the user's own choice and only its type is checked.
 */
export function namedConfinement(abs: string, cwdReal: string, lexicalCwd: string): Confinement {
  const typed = resolve(abs);
  const lexicallyInside = isInsideOrEqual(typed, resolve(lexicalCwd)) || isInsideOrEqual(typed, cwdReal);
  const gitAllowed = relativeParts(typed, resolve(lexicalCwd)).includes('.git');
  return { root: lexicallyInside ? cwdReal : null, gitAllowed };
}

/** What a reader needs at a path: a regular file, a folder, or either (a command that takes both). */
export type Want = 'file' | 'folder' | 'file-or-folder';

/** Checks `abs` (absolute) against the rule; `want` is what the reader needs there. */
export function confine(abs: string, within: Confinement, want: Want): Verdict {
  const where = within.rootName ?? 'the workspace';
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (error) {
    const link = lstatOrNull(abs)?.isSymbolicLink() === true;
    const code = errorCode(error);
    if (code === 'ENOENT') return link ? { refused: 'refused: a symlink whose target does not exist' } : { refused: 'no such file or directory', missing: true };
    if (code === 'ELOOP') return { refused: 'refused: a symlink loop' };
    return { refused: `refused: its path cannot be resolved (${systemReason(error)})` };
  }
  const through = real !== resolve(abs);
  if (within.root !== null) {
    if (!isInsideOrEqual(real, within.root)) return { refused: through ? `refused: a symlink that leaves ${where}` : `refused: outside ${where}` };
    if (within.gitAllowed !== true && relativeParts(real, within.root).includes('.git')) return { refused: through ? 'refused: a symlink into .git' : 'refused: inside .git' };
  }
  let info;
  try {
    info = lstatSync(real);
  } catch (error) {
    return { refused: `refused: cannot be read (${systemReason(error)})` };
  }
  if (want === 'file' && !info.isFile()) return { refused: through ? 'refused: a symlink to something that is not a regular file' : 'refused: not a regular file' };
  if (want === 'folder' && !info.isDirectory()) return { refused: 'refused: not a folder' };
  if (want === 'file-or-folder' && !info.isFile() && !info.isDirectory()) return { refused: through ? 'refused: a symlink to something that is neither a regular file nor a folder' : 'refused: neither a regular file nor a folder' };
  return { real };
}

/**
 * `confine` for a path a command was given (CLI): its real path, or a one-line user
 * error (exit 2): `no-such-path` when it is missing, else `refused` with the reason.
 */
export function confinedPath(abs: string, display: string, within: Confinement, want: Want): string {
  const verdict = confine(abs, within, want);
  if (verdict.refused === undefined) return verdict.real;
  if (verdict.missing) throw noSuchPath(display);
  throw refusedError(display, verdict.refused);
}

/** A refusal as a user error: `refused: <path>: a symlink into .git` (the code says refused once). */
function refusedError(display: string, reason: string): InputError {
  return new InputError(display, null, 'refused', `${display}: ${reason.replace(/^refused: /, '')}`);
}

/** `confinedPath` for a path typed on the command line, relative to the working folder `cwd`. */
export function namedPath(cwd: string, given: string, want: Want): string {
  const abs = resolve(cwd, given);
  return confinedPath(abs, given, { ...namedConfinement(abs, realFolder(cwd), cwd), rootName: 'the working folder' }, want);
}

export type SmallFile = { readonly kind: 'bytes'; readonly bytes: Buffer } | { readonly kind: 'refused'; readonly refused: string; readonly missing?: true } | { readonly kind: 'error'; readonly error: unknown };

/**
 * Reads a small file (configuration, scope, checkpoint, report) under the rule above,
 * its size checked before a byte is read: a larger file, a device, a FIFO or a
 * `/proc` file that leaves the root are refused at once. The read itself stops at
 * `maxBytes` + 1 whatever the file's stated size (a `/proc` file states 0).
 */
export function readConfinedFile(abs: string, within: Confinement, maxBytes: number): SmallFile {
  const verdict = confine(abs, within, 'file');
  if (verdict.refused !== undefined) return { kind: 'refused', refused: verdict.refused, ...(verdict.missing ? { missing: true as const } : {}) };
  let fd: number;
  try {
    // Non-blocking: a FIFO swapped in after the check cannot hang the open.
    fd = openSync(verdict.real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { kind: 'error', error };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { kind: 'refused', refused: 'refused: not a regular file' };
    if (info.size > maxBytes) return { kind: 'refused', refused: `refused: ${info.size} bytes, larger than the limit of ${maxBytes} bytes` };
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(maxBytes + 1 - total, Math.max(info.size + 1 - total, 64 * 1024)));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      parts.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) return { kind: 'refused', refused: `refused: larger than the limit of ${maxBytes} bytes` };
    }
    return { kind: 'bytes', bytes: Buffer.concat(parts, total) };
  } catch (error) {
    return { kind: 'error', error };
  } finally {
    closeSync(fd);
  }
}

/**
 * `readConfinedFile` for a file a command reads as input (checkpoint, seal manifest, report):
 * its bytes, or a one-line user error (exit 2): `no-such-path`, `unreadable`, `tooLarge()` past
 * `maxBytes`, else `refused` with the reason.
 */
export function readInputFile(abs: string, display: string, within: Confinement, maxBytes: number, tooLarge: () => InputError): Buffer {
  const read = readConfinedFile(abs, within, maxBytes);
  if (read.kind === 'bytes') return read.bytes;
  if (read.kind === 'error') throw unreadable(display, read.error);
  if (read.missing) throw noSuchPath(display);
  if (/larger than the limit/.test(read.refused)) throw tooLarge();
  throw refusedError(display, read.refused);
}

function isInsideOrEqual(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function relativeParts(path: string, root: string): string[] {
  return relative(root, path).split(sep);
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function errorCode(error: unknown): string | null {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : null;
}
