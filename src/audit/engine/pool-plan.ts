import { stat } from 'node:fs/promises';
import type { AuditInput } from './engine.js';

// How the pool (pool.ts) is planned: whether threads pay for their start, and each thread's share of the files.

/**
 * Below this many bytes of input in all, threads cost more than they save and one thread
 * audits: each worker compiles the whole bundle before it reads a line (about 0.2 s of CPU
 * for the CLI's, 0.5 s for the Action's), and its share is joined on this thread after.
 * Measured with dist/cli.js on 2 cores, generated span logs (bench/gen-span-log.mjs), wall
 * time at --jobs 1 and 2: two files of 6.7 MB in all 0.97 / 1.22 s, 27 MB 1.76 / 1.90 s,
 * 54 MB 2.75 / 2.65 s, 107 MB 4.8 / 4.2 s; one file routed over the threads, 6.7 MB 0.92 /
 * 1.27 s, 27 MB 1.77 / 2.07 s, 107 MB 4.8 / 4.4 s. The report is the same either way.
 */
export const POOL_MIN_BYTES = 48 * 1024 * 1024;

/**
 * AGENT_TRACE_AUDIT_POOL_MIN_BYTES (tests and tuning, read by both edges): POOL_MIN_BYTES for
 * this process, 0 for threads whatever the size; undefined when unset.
 */
export function poolMinBytesFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['AGENT_TRACE_AUDIT_POOL_MIN_BYTES'];
  if (raw === undefined || raw === '') return undefined;
  const bytes = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(bytes)) throw new Error(`AGENT_TRACE_AUDIT_POOL_MIN_BYTES must be a whole number of bytes (0 or more), not ${JSON.stringify(raw)}`);
  return bytes;
}

/**
 * Many small files (more than MANY_FILES, averaging under PER_FILE_BYTES): the work is
 * per file (opening, detecting, one summary and one run each), which the pool cannot
 * split without joining every file's summary on this thread. Measured on 100,000
 * one-line files, 2 cores: 17 s and 250 MiB on one thread, 23 s and 672 MiB pooled.
 */
const MANY_FILES = 1000;

/** Whether threads pay for their start: at least `minBytes` of input in all, and not many small files. */
export function threadsPay(sized: readonly SizedInput[], minBytes: number): boolean {
  const bytes = sized.reduce((sum, { size }) => sum + size, 0);
  if (bytes < minBytes) return false;
  return sized.length <= MANY_FILES || bytes / sized.length >= PER_FILE_BYTES;
}

/**
 * What a file costs to audit, in bytes: its size and a fixed share for opening,
 * detecting and reporting it, so a share of 50,000 one-line files is not counted as
 * nearly free next to one of a few large files.
 */
const PER_FILE_BYTES = 16 * 1024;

export interface SizedInput {
  readonly input: AuditInput;
  readonly size: number;
}

/** The files' sizes, STAT_BATCH at a time (100,000 stats at once hold 100,000 pending requests). */
export async function sizesOf(inputs: readonly AuditInput[]): Promise<SizedInput[]> {
  const sized: SizedInput[] = [];
  for (let at = 0; at < inputs.length; at += STAT_BATCH) {
    const batch = inputs.slice(at, at + STAT_BATCH);
    sized.push(...(await Promise.all(batch.map(async (input) => ({ input, size: (await stat(input.path).catch(() => null))?.size ?? 0 })))));
  }
  return sized;
}

const STAT_BATCH = 64;

/** Largest files first, each to the share with the least cost so far. */
export function balance(unsorted: readonly SizedInput[], jobs: number): AuditInput[][] {
  const sized = [...unsorted].sort((a, b) => b.size - a.size || (a.input.display < b.input.display ? -1 : 1));
  const shares = Array.from({ length: jobs }, () => ({ bytes: 0, inputs: [] as AuditInput[] }));
  for (const { input, size } of sized) {
    const lightest = shares.reduce((min, share) => (share.bytes < min.bytes ? share : min));
    lightest.inputs.push(input);
    lightest.bytes += size + PER_FILE_BYTES;
  }
  return shares.filter((share) => share.inputs.length > 0).map((share) => share.inputs);
}
