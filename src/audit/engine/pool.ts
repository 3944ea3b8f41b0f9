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
import { balance, POOL_MIN_BYTES, sizesOf, threadsPay, type SizedInput } from './pool-plan.js';
import { routedThreadMain, type RoutedTask } from '../route/routed-thread.js';

const WORKER_TAG = 'agent-trace-audit/audit-worker';

/** Files from this size on are routed over the threads when there are fewer files than jobs. */
export const ROUTE_MIN_BYTES = 4 * 1024 * 1024;

export interface PoolOptions extends AuditOptions {
  readonly jobs: number;
  readonly entry: URL | null;
  /** Threads only from this much input in all (default POOL_MIN_BYTES; tests pool small files). */
  readonly poolMinBytes?: number;
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
 * One job, less than POOL_MIN_BYTES of input, many small files (threadsPay), or an `onRun` callback: no workers. Each worker spills into
 * its own folder inside one pool folder; the workers post their chunk files by
 * path and the main thread's store owns them (and the pool folder) from then on.
 * If the pool fails, the workers are stopped and the pool folder removed.
 */
export async function runAuditPool(inputs: readonly AuditInput[], config: AuditConfig, options: PoolOptions): Promise<AuditResult> {
  if (options.jobs <= 1 || options.entry === null || options.onRun || inputs.length === 0) return runAudit(inputs, config, options);
  const sized = await sizesOf(inputs);
  if (!threadsPay(sized, options.poolMinBytes ?? POOL_MIN_BYTES)) return runAudit(inputs, config, options);
  if (inputs.length < options.jobs) return routeThenPool(sized, config, options);
  return runPool(balance(sized, options.jobs), config, options);
}

/**
 * Fewer files than jobs: each large file of a format with a run key is read here and
 * its lines routed to `jobs` threads by run; the other files are audited as usual.
 */
async function routeThenPool(inputs: readonly SizedInput[], config: AuditConfig, options: PoolOptions): Promise<AuditResult> {
  const poolFolder = makeSpillFolder(options.spill?.tmpRoot);
  const partials: PartialAudit[] = [];
  const extra: FindingHandoff[] = [folderHandoff([poolFolder])];
  try {
    const rest: AuditInput[] = [];
    for (const { input, size } of inputs) {
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

