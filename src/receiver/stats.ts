/** What the receiver counted: what it kept and, never silently, what it lost (requests, spans, connections). */
import type { InputNote } from '../model/audit.js';

/**
 * Connections held open at once. Past it Node closes a new connection at once; each such
 * drop is counted and reported (never silent). Idle keep-alive connections cost little:
 * what bounds memory is the one request read and decoded at a time (REQUEST_TURNS).
 */
export const MAX_CONNECTIONS = 1024;

export interface ReceiverStats {
  requests: number;
  acceptedSpans: number;
  /** Spans answered as rejected in a partial success. */
  rejectedSpans: number;
  /** Requests answered with an error status (nothing of them was kept). */
  refusedRequests: number;
  /** Spans of refused requests whose body could be read (spool full, client gone). */
  refusedSpans: number;
  /** Connections closed on arrival because MAX_CONNECTIONS were open. */
  droppedConnections: number;
  spoolBytes: number;
}

/** One line saying what the receiver took and, never silently, what it did not. */
export function describeStats(stats: ReceiverCounts): string {
  const head = `received ${stats.acceptedSpans} span(s) in ${stats.requests} request(s)`;
  const lost: string[] = [];
  if (stats.rejectedSpans > 0) lost.push(`${stats.rejectedSpans} span(s) rejected as invalid`);
  if (stats.refusedRequests > 0) lost.push(`${stats.refusedRequests} request(s) refused${stats.refusedSpans > 0 ? ` (${stats.refusedSpans} span(s) known lost)` : ''}`);
  const dropped = stats.droppedConnections ?? 0;
  if (dropped > 0) lost.push(`${dropped} connection(s) dropped on arrival (too many open at once)`);
  return lost.length > 0 ? `${head}; not kept: ${lost.join(', ')}` : head;
}

/** The counts a stopped receiver reports (its state file may predate droppedConnections). */
export type ReceiverCounts = Omit<ReceiverStats, 'spoolBytes' | 'droppedConnections'> & { readonly droppedConnections?: number };

/** True when the receiver refused, rejected or dropped anything: the audit says so as a finding. */
export function lostAny(stats: ReceiverCounts): boolean {
  return stats.rejectedSpans > 0 || stats.refusedRequests > 0 || (stats.droppedConnections ?? 0) > 0;
}

/** The receiver-loss finding the audit of the spool carries when anything was lost (none otherwise). */
export function lossNotes(stats: ReceiverCounts): InputNote[] {
  return lostAny(stats) ? [{ ruleId: 'receiver-loss', message: `the OTLP receiver ${describeStats(stats)}` }] : [];
}
