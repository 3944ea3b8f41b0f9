import type { SourceLocation } from '../../model/records.js';
import { idOf, str, toMillis, own, type JsonObject } from '../facts/fields.js';

/** What every native record shares: where it is, its run, time, span and carried catalog hash. */
export function baseFields(obj: JsonObject, loc: SourceLocation) {
  return {
    loc,
    runId: idOf(obj, 'run_id'),
    ts: toMillis(own(obj, 'ts') ?? own(obj, 'timestamp')),
    spanId: idOf(obj, 'span_id'),
    catalogSha256: str(obj, 'catalog_sha256'),
  };
}

/** A dialect's verdict on one record: the records it yields, or why it is malformed. */
export type DialectResult =
  | { readonly ok: true; readonly records: readonly import('../../model/records.js').TraceRecord[] }
  | { readonly ok: false; readonly reason: string };

export const ok = (...records: import('../../model/records.js').TraceRecord[]): DialectResult => ({ ok: true, records });
export const bad = (reason: string): DialectResult => ({ ok: false, reason });

/** Error-ness of a result from the fields dialects use for it. */
export function resultIsError(obj: JsonObject, httpStatus: number | null, exitCode: number | null): boolean {
  // Fixed names, none a member of Object.prototype: a plain read is an own read (fields.ts).
  if (own(obj, 'is_error') === true || own(obj, 'isError') === true) return true;
  if (own(obj, 'ok') === false) return true;
  const status = str(obj, 'status');
  if (status !== null && /^(error|failed|failure|timeout)$/i.test(status)) return true;
  if (str(obj, 'error_class') !== null) return true;
  const error = own(obj, 'error');
  if (error !== undefined && error !== null && error !== false && error !== '') return true;
  if (httpStatus !== null && httpStatus >= 400) return true;
  if (exitCode !== null && exitCode !== 0) return true;
  return false;
}

/** A stable code for the error when the record carries one (error.code, error_code, code). */
export function errorCodeOf(obj: JsonObject): string | null {
  const direct = idOf(obj, 'error_code');
  if (direct !== null) return direct;
  const error = own(obj, 'error');
  if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
    return idOf(error as JsonObject, 'code');
  }
  return null;
}
