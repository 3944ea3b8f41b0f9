import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { workerResourceLimits } from '../../heap-growth.js';
import type { AuditConfig } from './audit-config.js';
import {
  auditPartial,
  finishAudit,
  runAudit,
  type AuditInput,
  type AuditOptions,
  type PartialAudit,
  type AuditResult,
} from './engine.js';
import { DEFAULT_SPILL_THRESHOLD, type FindingHandoff, type FindingStoreOptions } from '../findings/finding-store.js';
import { folderHandoff, makeSpillFolder, removeSpillFolder } from '../findings/spill-folders.js';
import { auditRouted } from '../route/routed-file.js';
import { routedThreadMain, type RoutedTask } from '../route/routed-thread.js';

const WORKER_TAG = 'agent-trace-audit/audit-worker';

/** Files from this size on are routed over the threads when there are fewer files than jobs. */
export const ROUTE_MIN_BYTES = 4 * 1024 * 1024;

export interface PoolOptions extends AuditOptions {
  readonly jobs: number;
  readonly entry: URL | null;
  /** Files at least this large may be routed (default ROUTE_MIN_BYTES; tests route small files). */
  readonly routeMinBytes?: number;
  /** Told, for each routed file, how many lines the router had to parse to place (tests, the bench). */
  readonly onRouted?: (display: string, fallbackLines: number) => void;
}

interface RoutedWorkerData {
  readonly tag: typeof WORKER_TAG;
  readonly routed: RoutedTask;
}

interface WorkerTask {
  readonly tag: typeof WORKER_TAG;
  readonly inputs: AuditInput[];
  readonly config: AuditConfig;
  readonly inputFormat?: string;
  readonly collectTimelines?: boolean;
  /** The worker's findings spill into a folder inside the pool's (which the main thread removes). */
  readonly spill: FindingStoreOptions;
}

/** The default number of workers: the cores this process may use. */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

/**
 * Audits several files on a pool of threads (one per job: this one and jobs − 1
 * workers, each given a share of the files balanced by size) and joins their partial audits into the
 * same result, byte for byte, that one thread gives, with the findings left in
 * their store (the caller closes it). `entry` is the script the workers start:
 * the bundle itself, which runs `auditWorkerMain` when it sees it is a worker.
 * One job, one file, many small files (perFileWorkDominates), or an `onRun` callback: no workers. Each worker spills into
 * its own folder inside one pool folder; the workers post their chunk files by
 * path and the main thread's store owns them (and the pool folder) from then on.
 * If the pool fails, the workers are stopped and the pool folder removed.
 */
export async function runAuditPool(inputs: readonly AuditInput[], config: AuditConfig, options: PoolOptions): Promise<AuditResult> {
  const pooled = options.jobs > 1 && options.entry !== null && !options.onRun;
  if (pooled && inputs.length > 0 && inputs.length < options.jobs) return routeThenPool(inputs, config, options);
  const jobs = Math.min(options.jobs, inputs.length);
  if (!pooled || jobs <= 1) return runAudit(inputs, config, options);
  const sized = await sizesOf(inputs);
  if (perFileWorkDominates(sized)) return runAudit(inputs, config, options);
  return runPool(balance(sized, jobs), config, options);
}

/**
 * Many small files (more than MANY_FILES, averaging under PER_FILE_BYTES): the work is
 * per file (opening, detecting, one summary and one run each), which the pool cannot
 * split without joining every file's summary on this thread. Measured on 100,000
 * one-line files, 2 cores: 17 s and 250 MiB on one thread, 23 s and 672 MiB pooled.
 */
const MANY_FILES = 1000;

function perFileWorkDominates(sized: readonly SizedInput[]): boolean {
  if (sized.length <= MANY_FILES) return false;
  const bytes = sized.reduce((sum, { size }) => sum + size, 0);
  return bytes / sized.length < PER_FILE_BYTES;
}

/**
 * Fewer files than jobs: each large file of a format with a run key is read here and
 * its lines routed to `jobs` threads by run; the other files are audited as usual.
 */
async function routeThenPool(inputs: readonly AuditInput[], config: AuditConfig, options: PoolOptions): Promise<AuditResult> {
  const poolFolder = makeSpillFolder(options.spill?.tmpRoot);
  const partials: PartialAudit[] = [];
  const extra: FindingHandoff[] = [folderHandoff([poolFolder])];
  try {
    const rest: AuditInput[] = [];
    for (const input of inputs) {
      const size = (await stat(input.path).catch(() => null))?.size ?? 0;
      const routed =
        size >= (options.routeMinBytes ?? ROUTE_MIN_BYTES)
          ? await auditRouted(input, {
              config,
              jobs: options.jobs,
              entry: options.entry!,
              workerData: (task): RoutedWorkerData => ({ tag: WORKER_TAG, routed: task }),
              ...(options.inputFormat ? { inputFormat: options.inputFormat } : {}),
              ...(options.collectTimelines ? { collectTimelines: true } : {}),
              spill: { ...options.spill, tmpRoot: poolFolder },
            })
          : null;
      if (routed === null) rest.push(input);
      else {
        partials.push(...routed.partials);
        extra.push(routed.extra);
        options.onRouted?.(input.display, routed.fallbackLines);
      }
    }
    if (rest.length > 0) partials.push(await auditPartial(rest, config, options));
  } catch (error) {
    for (const handoff of [...extra, ...partials.map((p) => p.findings)]) for (const dir of handoff.dirs) removeSpillFolder(dir);
    throw error;
  }
  return finishAudit(partials, config, options.spill, extra);
}

async function runPool(shares: AuditInput[][], config: AuditConfig, options: PoolOptions): Promise<AuditResult> {
  const poolFolder = makeSpillFolder(options.spill?.tmpRoot);
  // The workers share the memory allowance: what they post back in memory adds up to
  // at most one store's worth, so the main thread neither holds jobs × threshold
  // findings at once nor writes them all to disk again after the workers are done.
  const threshold = Math.max(1, Math.floor((options.spill?.threshold ?? DEFAULT_SPILL_THRESHOLD) / shares.length));
  const workers: Worker[] = [];
  const task = (share: AuditInput[]): WorkerTask => ({
    tag: WORKER_TAG,
    inputs: share,
    config,
    ...(options.inputFormat ? { inputFormat: options.inputFormat } : {}),
    ...(options.collectTimelines ? { collectTimelines: true } : {}),
    spill: { ...options.spill, tmpRoot: poolFolder, threshold },
  });
  try {
    // This thread audits the first share itself while the workers audit the others:
    // one thread fewer to start, and no thread idle while the files are read.
    const [own, ...others] = shares;
    const running = [auditShare(task(own!)), ...others.map((share) => runWorker(options.entry!, workers, task(share)))];
    // Every share is waited for, also after one fails, so nothing still writes into
    // the pool folder when it is removed.
    const settled = await Promise.allSettled(running);
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const partials = settled.map((outcome) => (outcome as PromiseFulfilledResult<PartialAudit>).value);
    return finishAudit(partials, config, options.spill, [folderHandoff([poolFolder])]);
  } catch (error) {
    await Promise.allSettled(workers.map((worker) => worker.terminate()));
    removeSpillFolder(poolFolder);
    throw error;
  }
}

/** True in a thread started by `runAuditPool`; the entry script then calls `auditWorkerMain` instead of its own main. */
export function isAuditWorker(): boolean {
  return !isMainThread && (workerData as { tag?: unknown } | undefined)?.tag === WORKER_TAG;
}

export async function auditWorkerMain(): Promise<void> {
  const data = workerData as WorkerTask | RoutedWorkerData;
  if ('routed' in data) await routedThreadMain(data.routed, parentPort!);
  else parentPort!.postMessage(await auditShare(data));
}

/** One share of the files: what a worker does, and what the pool's own thread does with the first share. */
function auditShare(task: WorkerTask): Promise<PartialAudit> {
  return auditPartial(task.inputs, task.config, {
    ...(task.inputFormat ? { inputFormat: task.inputFormat } : {}),
    ...(task.collectTimelines ? { collectTimelines: true } : {}),
    spill: task.spill,
  });
}

function runWorker(entry: URL, workers: Worker[], task: WorkerTask): Promise<PartialAudit> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, { workerData: task, resourceLimits: workerResourceLimits() });
    workers.push(worker);
    let done = false;
    worker.once('message', (partial: PartialAudit) => {
      done = true;
      resolve(partial);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!done) reject(new Error(`audit worker stopped with exit code ${code} before it reported`));
    });
  });
}

/**
 * What a file costs to audit, in bytes: its size and a fixed share for opening,
 * detecting and reporting it, so a share of 50,000 one-line files is not counted as
 * nearly free next to one of a few large files.
 */
const PER_FILE_BYTES = 16 * 1024;

interface SizedInput {
  readonly input: AuditInput;
  readonly size: number;
}

/** The files' sizes, STAT_BATCH at a time (100,000 stats at once hold 100,000 pending requests). */
async function sizesOf(inputs: readonly AuditInput[]): Promise<SizedInput[]> {
  const sized: SizedInput[] = [];
  for (let at = 0; at < inputs.length; at += STAT_BATCH) {
    const batch = inputs.slice(at, at + STAT_BATCH);
    sized.push(...(await Promise.all(batch.map(async (input) => ({ input, size: (await stat(input.path).catch(() => null))?.size ?? 0 })))));
  }
  return sized;
}

const STAT_BATCH = 64;

/** Largest files first, each to the share with the least cost so far. */
function balance(unsorted: readonly SizedInput[], jobs: number): AuditInput[][] {
  const sized = [...unsorted].sort((a, b) => b.size - a.size || (a.input.display < b.input.display ? -1 : 1));
  const shares = Array.from({ length: jobs }, () => ({ bytes: 0, inputs: [] as AuditInput[] }));
  for (const { input, size } of sized) {
    const lightest = shares.reduce((min, share) => (share.bytes < min.bytes ? share : min));
    lightest.inputs.push(input);
    lightest.bytes += size + PER_FILE_BYTES;
  }
  return shares.filter((share) => share.inputs.length > 0).map((share) => share.inputs);
}
