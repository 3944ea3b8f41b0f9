import { InputError } from '../errors.js';
import type { SealMode } from './canonical-record.js';
import type { UnsealableLine } from './chain.js';

/**
 * Lines a records seal may leave out and list in its checkpoint. Past this, the
 * file is not one record per line with a few bad lines, and is sealed as bytes
 * instead (the Action) or refused (the CLI); the checkpoint stays small.
 */
export const MAX_UNSEALED_LINES = 100;
/** The longest reason kept per line. */
const MAX_REASON = 200;

/** A line of the source left out of a records chain: its number (from 1) and why. */
export interface UnsealedLine {
  readonly line: number;
  readonly reason: string;
}

export interface UnsealedPolicy {
  /**
   * The first non-blank line must be a record: a file that starts otherwise is
   * not JSON Lines (a pretty-printed document, YAML, an archive), and is better
   * sealed whole as bytes.
   */
  readonly firstLineMustSeal: boolean;
  /**
   * Whether a later line that is not a record is left out and listed (default)
   * or stops the seal: `seal` without --skip-unsealable. Such a stop is marked
   * (`stoppedAfterRecords`), so that it is not taken for a file that is not
   * JSON Lines (which `--form auto` seals as bytes).
   */
  readonly leaveOut?: boolean;
}

/** Errors that stopped a records seal on a line after its first record (a JSON Lines file with a bad line). */
const laterLineStops = new WeakSet<InputError>();

/** Whether `error` stopped a records seal after its first record (see UnsealedPolicy.leaveOut). */
export function stoppedAfterRecords(error: unknown): boolean {
  return error instanceof InputError && laterLineStops.has(error);
}

/**
 * What a records seal does with a line it cannot seal, when the caller accepts
 * leaving such lines out: the line is listed (`lines`) and the chain goes on.
 * In JCS form a number JCS cannot represent still stops the seal, so that the
 * whole file is sealed in the Python form instead.
 */
export function unsealedLines(mode: SealMode, policy: UnsealedPolicy): { readonly accept: UnsealableLine; readonly lines: UnsealedLine[] } {
  const lines: UnsealedLine[] = [];
  const accept: UnsealableLine = (error, records) => {
    if (error.line === null) return false;
    if (mode === 'jcs' && error.code === 'seal-unrepresentable') return false;
    if (records === 0 && lines.length === 0 && policy.firstLineMustSeal) return false;
    if (policy.leaveOut === false) {
      laterLineStops.add(error);
      return false;
    }
    if (lines.length >= MAX_UNSEALED_LINES) {
      throw new InputError(error.file, error.line, 'seal-too-many-unsealable', `${error.file}:${error.line}: cannot be sealed as records: more than ${MAX_UNSEALED_LINES} lines are not records (the last: ${reasonOf(error)})`);
    }
    lines.push({ line: error.line, reason: reasonOf(error) });
    return true;
  };
  return { accept, lines };
}

/** The error's message without the `file:line: ` it starts with, cut to MAX_REASON characters. */
function reasonOf(error: InputError): string {
  const prefix = `${error.file}:${error.line}: `;
  const reason = (error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message).replace(/^cannot be sealed: /, '');
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
}
