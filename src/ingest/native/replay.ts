import type { SourceLocation } from '../../model/records.js';
import { isObject, own, type JsonObject } from '../facts/fields.js';
import { bad, ok, type DialectResult } from './common.js';
import { canonicalize, isLosslessNumber, isLosslessObject, lossless, parseLossless, type LosslessValue } from '../../canonical/index.js';

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
export function parseReplay(obj: JsonObject, loc: SourceLocation, expected: number, text?: string): DialectResult {
  const keys = Object.keys(obj);
  const extra = keys.filter((k) => !REPLAY_KEYS.includes(k));
  const missing = REPLAY_KEYS.filter((k) => !keys.includes(k));
  if (extra.length > 0) return bad(`replay record has unknown field(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
  if (missing.length > 0) return bad(`replay record lacks field(s) ${missing.join(', ')}`);
  const index = own(obj, 'index');
  if (typeof index !== 'number' || !Number.isInteger(index)) return bad(`replay "index" must be an integer, not ${describe(index)}`);
  // The line read again with its number lexemes: `0.0` and `1e0` are floats to the seed's
  // Python reader (json.loads), not integers; args and responses keep every digit.
  const exact = text === undefined ? null : readExact(text);
  if (exact !== null && exact.indexText !== null && !/^-?(?:0|[1-9]\d*)$/.test(exact.indexText)) {
    return bad(`replay "index" must be an integer token, not ${exact.indexText}`);
  }
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
  const call = { kind: 'tool_call' as const, ...base, callId, tool, args, argsHash: null, deadlineMs: null, index };
  return ok(
    exact?.args === undefined ? call : { ...call, argsCanonical: exact.args },
    {
      ...(exact?.response === undefined ? {} : { contentCanonical: exact.response }),
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

/**
 * The `index` lexeme and the canonical form of `args` and `response` as the seed's
 * ToolReplay reads them (Python: sorted keys, no whitespace, integers exact, `1.0`
 * a float apart from `1`); null when the line does not read losslessly (the plain
 * values are used then), undefined members when they have no canonical form.
 */
function readExact(text: string): { indexText: string | null; args?: string; response?: string } | null {
  let root: LosslessValue;
  try {
    root = parseLossless(text);
  } catch {
    return null;
  }
  if (!isLosslessObject(root)) return null;
  const member = (key: string) => root.entries.find(([k]) => k === key)?.[1];
  const index = member('index');
  const form = (value: LosslessValue | undefined): string | undefined => {
    if (value === undefined) return undefined;
    try {
      return canonicalize(lossless(value), 'python');
    } catch {
      return undefined;
    }
  };
  const args = form(member('args'));
  const response = form(member('response'));
  return {
    indexText: index !== undefined && isLosslessNumber(index) ? index.text : null,
    ...(args === undefined ? {} : { args }),
    ...(response === undefined ? {} : { response }),
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
