import type { SourceLocation } from '../../model/records.js';
import { isObject, own, type JsonObject } from '../fields.js';
import { bad, ok, type DialectResult } from './common.js';

const REPLAY_KEYS = ['index', 'tool', 'args', 'response'];

/** A record with an `index` (and no kind/type, checked first) is meant as a replay record. */
export function looksLikeReplay(obj: JsonObject): boolean {
  return own(obj, 'index') !== undefined;
}

/**
 * Replay transcripts, parsed strictly: exactly `{index, tool, args, response}`,
 * index an integer (never a boolean) starting at 0 and rising by exactly 1.
 * `expected` is the index this line must carry.
 */
export function parseReplay(obj: JsonObject, loc: SourceLocation, expected: number): DialectResult {
  const keys = Object.keys(obj);
  const extra = keys.filter((k) => !REPLAY_KEYS.includes(k));
  const missing = REPLAY_KEYS.filter((k) => !keys.includes(k));
  if (extra.length > 0) return bad(`replay record has unknown field(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
  if (missing.length > 0) return bad(`replay record lacks field(s) ${missing.join(', ')}`);
  const index = own(obj, 'index');
  if (typeof index !== 'number' || !Number.isInteger(index)) return bad(`replay "index" must be an integer, not ${describe(index)}`);
  if (index !== expected) return bad(`replay index ${index} is out of order: expected ${expected}`);
  const tool = own(obj, 'tool');
  if (typeof tool !== 'string') return bad(`replay "tool" must be a string, not ${describe(tool)}`);
  const args = own(obj, 'args');
  if (!isObject(args)) return bad(`replay "args" must be an object, not ${describe(args)}`);
  const response = own(obj, 'response');
  if (!isObject(response)) return bad(`replay "response" must be an object, not ${describe(response)}`);
  const callId = `index:${index}`;
  const base = { loc, runId: null, ts: null, spanId: null, catalogSha256: null };
  const error = own(response, 'error');
  const isError = own(response, 'ok') === false || own(response, 'is_error') === true || (error !== undefined && error !== null && error !== false);
  return ok(
    { kind: 'tool_call', ...base, callId, tool, args, argsHash: null, deadlineMs: null, index },
    {
      kind: 'tool_result',
      ...base,
      callId,
      tool,
      content: response,
      isError,
      errorClass: null,
      errorCode: isObject(error) && typeof own(error, 'code') === 'string' ? (own(error, 'code') as string) : null,
      httpStatus: null,
      exitCode: null,
      index,
    },
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
