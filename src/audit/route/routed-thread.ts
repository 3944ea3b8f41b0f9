/**
 * A thread that audits the runs of one routed file it owns: it parses the lines the
 * router sends, groups them into runs, runs the per-run rules and posts back its
 * share (counters, runs, findings, rule states). It checks that every record it
 * reads belongs to one of its runs; a format that broke that (a record whose run
 * id is not its line's) makes the routing thread audit the file alone instead.
 */
import type { MessagePort } from 'node:worker_threads';
import type { AuditConfig } from '../engine/audit-config.js';
import { formatById } from '../../ingest/registry.js';
import { activeRules, emitter, storeReleased } from '../engine/active-rules.js';
import { ruleStates, type PartialAudit } from '../engine/engine.js';
import { newWork, readRuns, type RunEntry } from '../engine/file-audit.js';
import { fileIdentity } from '../engine/identity-setup.js';
import { DEFAULT_FINDING_CAPS } from '../findings/finding-caps.js';
import { FindingStore, type FindingStoreOptions } from '../findings/finding-store.js';
import { PerFileCap, type FileCapResult } from '../findings/per-file-cap.js';
import type { SkipSnapshot } from '../engine/skip-tally.js';
import type { LineBatch } from './line-router.js';
import { ownerOf } from './route-key.js';
import { BatchQueue, routedInput } from './routed-input.js';

export const ROUTED_MODE = 'routed';

export interface RoutedTask {
  readonly mode: typeof ROUTED_MODE;
  readonly display: string;
  /** The file's path below what was named (AuditInput.within). */
  readonly within?: string;
  readonly formatId: string;
  readonly config: AuditConfig;
  readonly thread: number;
  readonly threads: number;
  readonly collectTimelines: boolean;
  readonly spill: FindingStoreOptions;
}

export type ToThread = { readonly type: 'batch'; readonly batch: LineBatch } | { readonly type: 'end'; readonly lines: number };

/** One thread's share of a routed file. Plain data. */
export interface RoutedShare {
  readonly records: number;
  readonly completed: number;
  readonly lastDiagnosticLine: number;
  readonly skips: SkipSnapshot;
  readonly runs: RunEntry[];
  /** The file's findings this thread listed, and what each rule did not list: joined on the routing thread. */
  readonly capped: FileCapResult;
  readonly partial: PartialAudit;
  readonly misrouted: boolean;
}

export type FromThread = { readonly type: 'ack' } | { readonly type: 'done'; readonly share: RoutedShare };

export async function routedThreadMain(task: RoutedTask, port: MessagePort): Promise<void> {
  const queue = new BatchQueue();
  let lines = 0;
  port.on('message', (message: ToThread) => {
    if (message.type === 'batch') queue.push(message.batch);
    else {
      lines = message.lines;
      queue.push(null);
    }
  });
  const share = await auditRoutedShare(task, routedInput(task.display, task.config.limits, queue, () => port.postMessage({ type: 'ack' } satisfies FromThread)), () => lines);
  port.postMessage({ type: 'done', share } satisfies FromThread);
}

/** One thread's share of a routed file, from the lines `input` gives: in a worker, or on the routing thread itself (routed-file.ts). */
export async function auditRoutedShare(task: RoutedTask, input: ReturnType<typeof routedInput>, fileLines: () => number): Promise<RoutedShare> {
  const { config } = task;
  const format = formatById(task.formatId)!;
  const store = new FindingStore(task.spill);
  try {
    const metrics = Object.create(null) as Record<string, unknown>;
    const active = activeRules(config, metrics);
    const cap = new PerFileCap((config.findingCaps ?? DEFAULT_FINDING_CAPS).perRulePerFile);
    const work = newWork();
    let misrouted = false;
    const onRecord = (record: { runId: string | null }) => {
      if (!misrouted && ownerOf(record.runId, task.threads) !== task.thread) misrouted = true;
    };
    const identity = fileIdentity(config, task.display, task.within);
    await readRuns(input, format, config, { collectTimelines: task.collectTimelines, onRecord, identity }, active, emitter(config, store, cap), work, fileLines);
    const capped = cap.release(task.display);
    // Findings a rule placed in another file than this one are listed here.
    storeReleased(config, store, cap.release(), cap.cap);
    const partial: PartialAudit = { files: [], findings: store.handoff(), metrics, states: ruleStates(active) };
    const { records, completed, lastDiagnosticLine, runs } = work;
    return { records, completed, lastDiagnosticLine, skips: work.skips.snapshot(), runs, capped, partial, misrouted };
  } catch (error) {
    store.close();
    throw error;
  }
}
