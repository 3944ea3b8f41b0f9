import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { AuditConfig } from './audit-config.js';
import {
  auditPartial,
  finishAuditStored,
  runAuditStored,
  type AuditInput,
  type AuditOptions,
  type PartialAudit,
  type StoredAuditResult,
} from './engine.js';
import { DEFAULT_SPILL_THRESHOLD, folderHandoff, makeSpillFolder, removeSpillFolder, type FindingStoreOptions } from './finding-store.js';

const WORKER_TAG = 'agent-trace-audit/audit-worker';

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
 * One job, one file, or an `onRun` callback: no workers. Each worker spills into
 * its own folder inside one pool folder; the workers post their chunk files by
 * path and the main thread's store owns them (and the pool folder) from then on.
 * If the pool fails, the workers are stopped and the pool folder removed.
 */
export async function runAuditPoolStored(
  inputs: readonly AuditInput[],
  config: AuditConfig,
  options: AuditOptions & { readonly jobs: number; readonly entry: URL | null },
): Promise<StoredAuditResult> {
  const jobs = Math.min(options.jobs, inputs.length);
  if (jobs <= 1 || options.entry === null || options.onRun) return runAuditStored(inputs, config, options);
  const shares = await balance(inputs, jobs);
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
    return finishAuditStored(partials, config, options.spill, [folderHandoff([poolFolder])]);
  } catch (error) {
    await Promise.allSettled(workers.map((worker) => worker.terminate()));
    removeSpillFolder(poolFolder);
    throw error;
  }
}

/** True in a thread started by `runAuditPoolStored`; the entry script then calls `auditWorkerMain` instead of its own main. */
export function isAuditWorker(): boolean {
  return !isMainThread && (workerData as WorkerTask | undefined)?.tag === WORKER_TAG;
}

export async function auditWorkerMain(): Promise<void> {
  parentPort!.postMessage(await auditShare(workerData as WorkerTask));
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
    const worker = new Worker(entry, { workerData: task });
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

/** Largest files first, each to the share with the fewest bytes so far. */
async function balance(inputs: readonly AuditInput[], jobs: number): Promise<AuditInput[][]> {
  const sized = await Promise.all(inputs.map(async (input) => ({ input, size: (await stat(input.path).catch(() => null))?.size ?? 0 })));
  sized.sort((a, b) => b.size - a.size || (a.input.display < b.input.display ? -1 : 1));
  const shares = Array.from({ length: jobs }, () => ({ bytes: 0, inputs: [] as AuditInput[] }));
  for (const { input, size } of sized) {
    const lightest = shares.reduce((min, share) => (share.bytes < min.bytes ? share : min));
    lightest.inputs.push(input);
    lightest.bytes += size;
  }
  return shares.filter((share) => share.inputs.length > 0).map((share) => share.inputs);
}
