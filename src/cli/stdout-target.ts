import { readlinkSync, statSync } from 'node:fs';

/**
 * The regular file this process's stdout was redirected to (`> sealed.jsonl`),
 * or null for a terminal, a pipe, or a system that does not say (only Linux's
 * /proc names it). `seal` puts the checkpoint beside it.
 */
export function stdoutFile(): string | null {
  try {
    const target = readlinkSync('/proc/self/fd/1');
    return target.startsWith('/') && statSync(target).isFile() ? target : null;
  } catch {
    return null;
  }
}
