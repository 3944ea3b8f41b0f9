/**
 * One file, many threads: this thread reads the file's bytes and routes each line
 * to the thread that owns its run (line-router.ts); each of `jobs` threads (this
 * one, which audits the share of thread 0 between reads, and jobs − 1 workers)
 * parses its lines, groups its runs and runs the per-run rules (routed-thread.ts); their
 * shares join here into the file's summary, runs and findings, the same, byte for
 * byte, as one thread gives. Only formats with a run key (TraceFormat.runKey) are
 * routed. A share that shows the routing did not hold (a misrouted record, too
 * many skip reasons to join in any order) makes the caller audit the file alone.
 */
import { Worker } from 'node:worker_threads';
import { workerResourceLimits } from '../../heap-growth.js';
import type { AuditConfig } from '../engine/audit-config.js';
import { detectableFormats } from '../../ingest/custom/index.js';
import { chooseFormat } from '../../ingest/detect.js';
import { openByteSource } from '../../io/byte-source.js';
import { openTraceFile } from '../../io/trace-file.js';
import { emitter, storeReleased } from '../engine/active-rules.js';
import type { AuditInput, PartialAudit } from '../engine/engine.js';
import { scanIfEmpty } from '../engine/empty-file.js';
import { diagnoser, entryOrder, finishFile, newWork, noteFile } from '../engine/file-audit.js';
import { DEFAULT_FINDING_CAPS } from '../findings/finding-caps.js';
import { FindingStore, type FindingHandoff, type FindingStoreOptions } from '../findings/finding-store.js';
import { removeSpillFolder } from '../findings/spill-folders.js';
import { PerFileCap } from '../findings/per-file-cap.js';
import { fileIdentity } from '../engine/identity-setup.js';
import { LineRouter, type LineBatch } from './line-router.js';
import { RouteKey } from './route-key.js';
import { BatchQueue, routedInput } from './routed-input.js';
import { auditRoutedShare, ROUTED_MODE, type FromThread, type RoutedShare, type RoutedTask, type ToThread } from './routed-thread.js';

/** Batches sent to a thread and not yet parsed by it, before the router waits. */
const IN_FLIGHT = 8;

export interface RouteOptions {
  readonly config: AuditConfig;
  readonly jobs: number;
  readonly entry: URL;
  /** Wraps the routed task into what the entry script recognizes as a worker's data. */
  readonly workerData: (task: RoutedTask) => unknown;
  readonly inputFormat?: string;
  readonly collectTimelines?: boolean;
  readonly spill: FindingStoreOptions;
}

/** What routing a file gave: partial audits for the pool's join, and the lines placed by a parse here. */
export interface RoutedFile {
  readonly partials: PartialAudit[];
  readonly extra: FindingHandoff;
  readonly fallbackLines: number;
}

/** Audits `input` routed over `jobs` threads, or returns null when its format has no run key or the routing did not hold. */
export async function auditRouted(input: AuditInput, options: RouteOptions): Promise<RoutedFile | null> {
  const { config } = options;
  const opened = await openTraceFile(input.path, input.display, config.limits);
  const choice = chooseFormat(opened.sample, options.inputFormat, await detectableFormats(config.formats));
  const format = choice.format;
  if (!format?.runKey) return null;
  const key = new RouteKey(format.runKey, options.jobs);
  const task = (thread: number): RoutedTask => ({ mode: ROUTED_MODE, display: input.display, ...(input.within === undefined ? {} : { within: input.within }), formatId: format.id, config, thread, threads: options.jobs, collectTimelines: options.collectTimelines === true, spill: options.spill });
  // Thread 0 is this one: two busy threads on two cores, not a reader and two workers.
  const threads = Array.from({ length: options.jobs }, (_, thread) => (thread === 0 ? localThread(task(thread)) : startThread(options, task(thread))));
  let shares: RoutedShare[];
  try {
    const router = new LineRouter(key, config.limits.maxLineBytes, (thread, batch) => threads[thread]!.send(batch));
    const source = await openByteSource(input.path, config.limits);
    for await (const chunk of source.chunks({ reuse: true })) await router.feed(chunk);
    await router.end();
    for (const thread of threads) thread.end(router.facts.lines);
    shares = await Promise.all(threads.map((thread) => thread.done));
    const empty = shares.every((share) => share.skips.toolLike === 0 && share.runs.every((run) => run.summary.toolCalls + run.summary.toolResults === 0));
    const scan = empty ? await scanIfEmpty(input, config, newWork()) : null;
    const joined = join(input, shares, options, (work, emit) => {
      if (choice.note) diagnoser(input.display, emit, work.skips)({ ruleId: 'ingest-note', line: 0, message: choice.note });
      const summary = finishFile(input.display, format, router.facts, [source], work, emit, scan);
      noteFile(input, emit, work.skips);
      return summary;
    });
    if (joined === null) discard(shares);
    return joined === null ? null : { ...joined, fallbackLines: key.fallbacks };
  } finally {
    await Promise.allSettled(threads.map((thread) => thread.stop()));
  }
}

type Finish = (work: ReturnType<typeof newWork>, emit: ReturnType<typeof emitter>) => ReturnType<typeof finishFile>;

/** The shares joined into one file entry (on the first share's partial), or null when they cannot be. */
function join(input: AuditInput, shares: RoutedShare[], options: RouteOptions, finish: Finish): Omit<RoutedFile, 'fallbackLines'> | null {
  const display = input.display;
  if (shares.some((share) => share.misrouted)) return null;
  const work = newWork();
  for (const share of shares) {
    work.records += share.records;
    work.completed += share.completed;
    work.lastDiagnosticLine = Math.max(work.lastDiagnosticLine, share.lastDiagnosticLine);
    work.skips.absorb(share.skips);
    work.runs.push(...share.runs);
  }
  if (work.skips.full) return null;
  work.runs.sort(entryOrder);
  const { config } = options;
  const store = new FindingStore(options.spill);
  try {
    const cap = new PerFileCap((config.findingCaps ?? DEFAULT_FINDING_CAPS).perRulePerFile);
    for (const share of shares) cap.absorb(display, share.capped);
    const summary = finish(work, fileIdentity(config, display, input.within).emitter(emitter(config, store, cap)));
    storeReleased(config, store, cap.release(display), cap.cap);
    storeReleased(config, store, cap.release(), cap.cap);
    const [first, ...rest] = shares.map((share) => share.partial);
    return { partials: [{ ...first!, files: [{ summary, runs: work.runs }] }, ...rest], extra: store.handoff() };
  } catch (error) {
    store.close();
    throw error;
  }
}

function discard(shares: readonly RoutedShare[]): void {
  for (const share of shares) for (const dir of share.partial.findings.dirs) removeSpillFolder(dir);
}

interface Thread {
  send(batch: LineBatch): Promise<void> | undefined;
  end(lines: number): void;
  readonly done: Promise<RoutedShare>;
  stop(): Promise<unknown>;
}

/**
 * Batches sent to a thread and not yet parsed by it: `sent` returns a promise to
 * wait on when IN_FLIGHT are, which `ack` (a batch parsed) or `fail` settles.
 */
class FlowControl {
  #inFlight = 0;
  #resume: (() => void) | null = null;
  failed: unknown = null;

  sent(): Promise<void> | undefined {
    if (this.failed !== null) throw this.failed;
    this.#inFlight += 1;
    if (this.#inFlight < IN_FLIGHT) return undefined;
    return new Promise<void>((resolve) => (this.#resume = resolve)).then(() => {
      if (this.failed !== null) throw this.failed;
    });
  }

  ack(): void {
    this.#inFlight -= 1;
    this.#wake();
  }

  fail(error: unknown): void {
    this.failed = error;
    this.#wake();
  }

  #wake(): void {
    this.#resume?.();
    this.#resume = null;
  }
}

/** Thread 0's share, audited on this thread: it parses its batches whenever the router waits (on a read or on a thread). */
function localThread(task: RoutedTask): Thread {
  const queue = new BatchQueue();
  const flow = new FlowControl();
  let lines = 0;
  const done = auditRoutedShare(task, routedInput(task.display, task.config.limits, queue, () => flow.ack()), () => lines);
  done.catch((error: unknown) => flow.fail(error));
  return {
    done,
    send(batch) {
      if (flow.failed !== null) throw flow.failed;
      queue.push(batch);
      return flow.sent();
    },
    end(fileLines) {
      lines = fileLines;
      queue.push(null);
    },
    stop: () => done.catch(() => undefined),
  };
}

function startThread(options: RouteOptions, task: RoutedTask): Thread {
  const worker = new Worker(options.entry, { workerData: options.workerData(task), resourceLimits: workerResourceLimits() });
  const flow = new FlowControl();
  const done = new Promise<RoutedShare>((resolve, reject) => {
    worker.on('message', (message: FromThread) => {
      if (message.type === 'ack') flow.ack();
      else resolve(message.share);
    });
    const fail = (error: unknown) => {
      flow.fail(error);
      reject(error);
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`audit worker stopped with exit code ${code} before it reported`)));
  });
  done.catch(() => undefined);
  const post = (message: ToThread, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);
  return {
    done,
    send(batch) {
      if (flow.failed !== null) throw flow.failed;
      post({ type: 'batch', batch }, [batch.bytes.buffer as ArrayBuffer, batch.lines.buffer as ArrayBuffer]);
      return flow.sent();
    },
    end(lines) {
      post({ type: 'end', lines });
    },
    stop: () => worker.terminate(),
  };
}
