/**
 * The private temporary folders of finding stores (mode 0700, made by mkdtemp) and
 * their cleanup: every folder still registered when the thread exits (or the main
 * thread gets SIGINT, SIGTERM or SIGHUP) is removed then.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { FindingHandoff } from './finding-store.js';

/**
 * A private temporary folder (mode 0700) that is removed when the process exits,
 * unless it was removed before; hand it to a store with an adopt of `folderHandoff([it])`.
 */
export function makeSpillFolder(tmpRoot: string = tmpdir()): string {
  const dir = mkdtempSync(join(tmpRoot, 'agent-trace-audit-spill-'));
  registerLiveFolder(dir);
  return dir;
}

/** A handoff that carries only the ownership of folders (no findings). */
export function folderHandoff(dirs: readonly string[]): FindingHandoff {
  return { dirs, sources: [], counts: { error: 0, warning: 0, note: 0 }, ruleIds: [] };
}

/** Removes a folder made by makeSpillFolder (or handed over) that no store took. */
export function removeSpillFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  forgetLiveFolder(dir);
}

/** A folder this thread makes or takes over: removed at exit unless it was removed before. */
export function registerLiveFolder(dir: string): void {
  LIVE_FOLDERS.add(dir);
  hookExit();
}

/** A folder removed, or handed to another thread: no longer this thread's to remove at exit. */
export function forgetLiveFolder(dir: string): void {
  LIVE_FOLDERS.delete(dir);
}

/** Folders of this thread still to remove: a last chance at exit (process.exit, an uncaught error, a signal). */
const LIVE_FOLDERS = new Set<string>();
let exitHooked = false;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', removeLiveFolders);
  // Signals reach the main thread only (its pool folder holds the workers' folders). The
  // folders are removed, then the signal is raised again without this handler: the
  // process ends as it would have (unless something else listens for it).
  if (!isMainThread) return;
  const onSignal = (signal: NodeJS.Signals) => {
    removeLiveFolders();
    for (const name of SIGNALS) process.removeListener(name, onSignal);
    process.kill(process.pid, signal);
  };
  for (const name of SIGNALS) process.once(name, onSignal);
}

function removeLiveFolders(): void {
  for (const live of LIVE_FOLDERS) {
    try {
      rmSync(live, { recursive: true, force: true });
    } catch {
      // Exiting anyway: nothing more to do.
    }
  }
  LIVE_FOLDERS.clear();
}

