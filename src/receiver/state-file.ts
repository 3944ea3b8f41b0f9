import { readFile } from 'node:fs/promises';
import { isObject, own } from '../ingest/facts/fields.js';

/**
 * The state file `receive --state` writes: once listening (pid, port, endpoint,
 * spool) and again once stopped, with `stopped: true` and the counts. A detached
 * receiver is found, stopped and audited through it.
 */
export interface ReceiverState {
  readonly pid: number;
  readonly port: number;
  readonly endpoint: string;
  readonly spool: string;
  readonly stopped: boolean;
  readonly stats: { requests: number; acceptedSpans: number; rejectedSpans: number; refusedRequests: number; refusedSpans: number; droppedConnections: number } | null;
}

/** The state, or null while the file is absent or not yet whole. */
export async function readReceiverState(path: string): Promise<ReceiverState | null> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return null;
  }
  if (!isObject(data)) return null;
  const pid = own(data, 'pid');
  const port = own(data, 'port');
  const endpoint = own(data, 'endpoint');
  const spool = own(data, 'spool');
  if (typeof pid !== 'number' || typeof port !== 'number' || typeof endpoint !== 'string' || typeof spool !== 'string') return null;
  const stats = own(data, 'stats');
  const counts = isObject(stats)
    ? {
        requests: count(own(stats, 'requests')),
        acceptedSpans: count(own(stats, 'acceptedSpans')),
        rejectedSpans: count(own(stats, 'rejectedSpans')),
        refusedRequests: count(own(stats, 'refusedRequests')),
        refusedSpans: count(own(stats, 'refusedSpans')),
        droppedConnections: count(own(stats, 'droppedConnections')),
      }
    : null;
  return { pid, port, endpoint, spool, stopped: own(data, 'stopped') === true, stats: counts };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** Polls `check` every 50 ms until it returns a value or `timeoutMs` passes (then null). */
export async function waitFor<T>(check: () => Promise<T | null>, timeoutMs: number): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Stops a detached receiver: SIGTERM, then waits for it to write its stopped state
 * (every acknowledged span is in the spool by then). Returns that state, or null
 * when it did not stop in time (it is then killed) or had already gone without one.
 */
export async function stopReceiver(statePath: string, timeoutMs: number): Promise<ReceiverState | null> {
  const state = await readReceiverState(statePath);
  if (state === null) return null;
  if (state.stopped) return state;
  if (!isAlive(state.pid)) return null;
  process.kill(state.pid, 'SIGTERM');
  const stopped = await waitFor(async () => {
    const now = await readReceiverState(statePath);
    return now?.stopped ? now : null;
  }, timeoutMs);
  if (stopped === null && isAlive(state.pid)) process.kill(state.pid, 'SIGKILL');
  // The stopped state is its last write; its exit follows at once.
  await waitFor(async () => (isAlive(state.pid) ? null : true), 5_000);
  return stopped;
}
