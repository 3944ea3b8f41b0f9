import { InputError } from '../errors.js';
import type { ReadLimits } from '../io/limits.js';
import type { SealMode } from './canonical-record.js';
import type { Checkpoint, RedactionReceipt, SealKind } from './checkpoint.js';
import { sealBytes } from './seal-bytes.js';
import { sealFile, type SealSink } from './seal-file.js';
import { stoppedAfterRecords } from './unsealed-lines.js';

/** How a trace is sealed: `auto` tries records in JCS, records in the Python form, then bytes. */
export const SEAL_FORMS = ['auto', 'jcs', 'python', 'bytes'] as const;
export type SealForm = (typeof SEAL_FORMS)[number];

export interface SealAsRequest {
  /** The file to seal (already redacted when `redactions` is given), and its name in messages. */
  readonly path: string;
  readonly display: string;
  /** A fresh sink for each attempt (`auto` may start over in another form); written whole or not at all. */
  readonly sink: () => Promise<SealSink>;
  readonly checkpointPath: string | null;
  readonly checkpointDisplay: string;
  readonly form: SealForm;
  readonly limits: ReadLimits;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Records: leave lines that are not records out of the chain and list them
   * (the Action; `seal --skip-unsealable`), or stop at the first such line
   * after a record (`seal`; the error is marked by stoppedAfterRecords).
   */
  readonly leaveOut: boolean;
  readonly redactions?: readonly RedactionReceipt[];
}

export interface SealedAs {
  readonly checkpoint: Checkpoint;
  readonly mode: SealMode;
  readonly kind: SealKind;
}

/**
 * Seals one trace in the form asked for, the one order for the Action and the
 * CLI. `auto`: records in JCS; a record JCS cannot represent exactly
 * (integers past 2^53) makes the whole file sealed in the Python form; a file
 * that is not one record per line (a JSON document, an .eval archive, a YAML
 * cassette, a first line that is not a record, too many lines that are not
 * records) is sealed as a chain over its bytes. A JSON Lines file stopped by a
 * later line (leaveOut false) is that line's error, not bytes. A seal of no
 * record is the error `seal-empty`, never a success.
 */
export async function sealAs(request: SealAsRequest): Promise<SealedAs> {
  const { form } = request;
  if (form === 'bytes') return asBytes(request);
  if (form !== 'auto') return asRecords(request, form, { firstLineMustSeal: false, leaveOut: request.leaveOut });
  const policy = { firstLineMustSeal: true, leaveOut: request.leaveOut };
  try {
    return await asRecords(request, 'jcs', policy);
  } catch (error) {
    if (!notRecords(error)) throw error;
    if (error instanceof InputError && error.code === 'seal-unrepresentable') {
      try {
        return await asRecords(request, 'python', policy);
      } catch (again) {
        if (!notRecords(again)) throw again;
      }
    }
    return asBytes(request);
  }
}

/** Errors that say the file is not one record per line (so bytes is the form), not that it cannot be read or written. */
function notRecords(error: unknown): boolean {
  return error instanceof InputError && error.code !== 'unreadable' && error.code !== 'unwritable' && error.code !== 'no-such-path' && !stoppedAfterRecords(error);
}

async function asRecords(request: SealAsRequest, mode: SealMode, unsealable: { firstLineMustSeal: boolean; leaveOut: boolean }): Promise<SealedAs> {
  const { path, display, checkpointPath, checkpointDisplay, limits, env } = request;
  const sink = await request.sink();
  const checkpoint = await sealFile({ path, display, sink, checkpointPath, checkpointDisplay, mode, limits, env, unsealable, redactions: request.redactions ?? [] });
  return { checkpoint, mode, kind: 'records' };
}

async function asBytes(request: SealAsRequest): Promise<SealedAs> {
  const { path, display, checkpointPath, checkpointDisplay, env } = request;
  const sink = await request.sink();
  const checkpoint = await sealBytes({ path, display, sink, checkpointPath, checkpointDisplay, maxBytes: request.limits.maxDocumentBytes, env, redactions: request.redactions ?? [] });
  return { checkpoint, mode: 'jcs', kind: 'bytes' };
}
