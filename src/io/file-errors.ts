import { InputError } from '../errors.js';

/**
 * The one vocabulary for files that cannot be read or written, shared by every
 * command: a missing file is `no-such-path` wherever it is named, any other
 * read failure `unreadable`, a write failure `unwritable`. One line, no stack.
 */
export function unreadable(display: string, error: unknown): InputError {
  if (errorCode(error) === 'ENOENT') return noSuchPath(display);
  return new InputError(display, null, 'unreadable', `${display}: cannot read: ${systemReason(error)}`);
}

export function unwritable(display: string, error: unknown): InputError {
  return new InputError(display, null, 'unwritable', `${display}: cannot write: ${systemReason(error)}`);
}

export function noSuchPath(display: string): InputError {
  return new InputError(display, null, 'no-such-path', `no such file or directory: ${JSON.stringify(display)}`);
}

/** A file that is there and would be replaced: refused unless the command was told --force. */
export function alreadyExists(display: string): InputError {
  return new InputError(display, null, 'output-exists', `${display} already exists; pass --force to replace it`);
}

function errorCode(error: unknown): string | null {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : null;
}

/** The system's error code in words (the code itself when it is not a common one). */
export function systemReason(error: unknown): string {
  const code = errorCode(error) ?? 'I/O error';
  const known: Record<string, string> = {
    ENOENT: 'no such file or folder',
    ENOTDIR: 'a part of the path is not a folder',
    EISDIR: 'is a directory',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
  };
  return Object.hasOwn(known, code) ? known[code]! : code;
}
