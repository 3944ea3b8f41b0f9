import type { BoundaryRecord, RedactionReceipt, SourceLocation } from '../../model/records.js';
import { idOf, int, isObject, own, str, type JsonObject } from '../facts/fields.js';
import { baseFields } from './common.js';

const HASH_FIELDS = ['process_sha256', 'adapter_sha256', 'model_sha256', 'adapter_canonical_sha256'];
/** A SHA-256 as recorded: 64 hex digits, optionally prefixed `sha256:` (normalizeHash strips it). */
const SHA256_HEX = /^(?:sha-?256:)?[0-9a-fA-F]{64}$/;

/** Hashes, or the saved payloads they are computed from. */
export function hasBoundaryFields(obj: JsonObject): boolean {
  // Read by fixed name (each load cached at its place; none is an Object.prototype member): on every record.
  return (
    own(obj, 'process_sha256') !== undefined ||
    own(obj, 'adapter_sha256') !== undefined ||
    own(obj, 'model_sha256') !== undefined ||
    own(obj, 'adapter_canonical_sha256') !== undefined ||
    own(obj, 'process_payload') !== undefined ||
    own(obj, 'adapter_payload') !== undefined ||
    own(obj, 'model_payload') !== undefined
  );
}

export function isRedactionReceipt(obj: JsonObject): boolean {
  return own(obj, 'field_path') !== undefined && own(obj, 'rule_id') !== undefined;
}

/**
 * Boundary-hash fields, standalone or on a tool call/result line: the hashes and
 * byte lengths at the process, adapter and model boundaries, and the recorded hop.
 */
export function parseBoundary(obj: JsonObject, loc: SourceLocation): { readonly record: BoundaryRecord | null; readonly problem: string | null } {
  const payloads: { process?: string; adapter?: string; model?: string } = {};
  for (const hop of ['process', 'adapter', 'model'] as const) {
    const raw = str(obj, `${hop}_payload`);
    if (raw !== null) payloads[hop] = raw;
  }
  let problem: string | null = null;
  const bad = new Set<string>();
  for (const field of HASH_FIELDS) {
    const value = own(obj, field);
    if (value === undefined || value === null || (typeof value === 'string' && SHA256_HEX.test(value.trim()))) continue;
    bad.add(field);
    problem ??=
      typeof value !== 'string'
        ? `boundary record "${field}" is not a string`
        : `boundary record "${field}" is not a SHA-256 hex digest (64 hex digits): ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}; a placeholder left in place of the real hash?`;
  }
  // A record whose hashes are unusable is kept only for its saved payloads (hashed from the bytes, and scanned for secrets).
  if (problem !== null && Object.keys(payloads).length === 0) return { record: null, problem };
  const hash = (field: string) => (bad.has(field) ? null : str(obj, field));
  const record: BoundaryRecord = {
    kind: 'boundary',
    ...baseFields(obj, loc),
    callId: idOf(obj, 'call_id') ?? idOf(obj, 'tool_call_id'),
    processSha256: hash('process_sha256'),
    adapterSha256: hash('adapter_sha256'),
    modelSha256: hash('model_sha256'),
    processLen: int(obj, 'process_len'),
    adapterLen: int(obj, 'adapter_len'),
    modelLen: int(obj, 'model_len'),
    mutationHop: str(obj, 'mutation_hop'),
    adapterCanonicalSha256: hash('adapter_canonical_sha256'),
    payloads,
  };
  return { record, problem };
}

/** A redaction receipt `{field_path, rule_id, original_len, token}`; null when its fields have the wrong types. */
export function parseRedaction(obj: JsonObject, loc: SourceLocation, base: JsonObject = obj): RedactionReceipt | null {
  const fieldPath = str(obj, 'field_path');
  const ruleId = str(obj, 'rule_id');
  if (fieldPath === null || ruleId === null) return null;
  return {
    kind: 'redaction',
    ...baseFields(base, loc),
    fieldPath,
    ruleId,
    originalLen: int(obj, 'original_len'),
    token: str(obj, 'token'),
  };
}

/** Receipts carried as a list on another record (`redactions` or `redaction_receipts`). */
const NO_RECEIPTS: readonly RedactionReceipt[] = Object.freeze([]);

export function embeddedReceipts(obj: JsonObject, loc: SourceLocation): readonly RedactionReceipt[] | string {
  const list = own(obj, 'redactions') ?? own(obj, 'redaction_receipts');
  if (list === undefined) return NO_RECEIPTS;
  if (!Array.isArray(list)) return 'redaction receipts are not a list';
  const out: RedactionReceipt[] = [];
  for (const item of list) {
    const receipt = isObject(item) ? parseRedaction(item, loc, obj) : null;
    if (receipt === null) return 'a redaction receipt lacks a string field_path or rule_id';
    out.push(receipt);
  }
  return out;
}
