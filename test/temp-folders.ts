import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * Every folder tempDir made and has not removed yet. A worker runs many test files
 * one after another with this module loaded once (vitest.config.ts: isolate false),
 * so what a file leaves is removed when that file ends (test/each-file-setup.ts).
 */
const made = new Set<string>();

function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  made.delete(dir);
}

/**
 * A fresh empty folder in the OS temp dir, removed when the current test
 * finishes; made outside a test (module scope, describe body, beforeAll),
 * when the test file finishes.
 */
export function tempDir(prefix = 'ata-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  try {
    onTestFinished(() => removeFolder(dir));
  } catch {
    // Not inside a test: removed when the file finishes (removeFoldersLeft).
  }
  return dir;
}

/** Removes the folders tempDir made that are still there (those made at collection or in a beforeAll). */
export function removeFoldersLeft(): void {
  for (const dir of [...made]) removeFolder(dir);
}
