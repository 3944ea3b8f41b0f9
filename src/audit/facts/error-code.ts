import type { HeldResult } from '../../model/run.js';

/**
 * The stable, machine-readable code of an error result, wherever the body
 * carries it: the record's own error code, or in the content (an object, a JSON
 * string, or the JSON text of a content-array item) as `code`, `error_code`,
 * `errorCode`, `error` (when it is a code, not a sentence), `error.code`,
 * `error.type`, or a top-level `type` next to a message. Null when there is none:
 * a bare message or `str(exc)` text.
 */
export function errorCodeOfResult(result: HeldResult): string | null {
  if (result.errorCode !== null && result.errorCode !== '') return result.errorCode;
  return result.contentErrorCode;
}

/** The code in a result's content (see errorCodeOfResult): taken when an error result arrives (hold.ts). */
export function errorCodeInContent(content: unknown): string | null {
  for (const body of bodiesOf(content, 0)) {
    const code = codeInBody(body);
    if (code !== null) return code;
  }
  return null;
}

/** A word-like token a program can branch on: `invalid_status`, `ENOENT`, `NotFound`, `E1234`, `rate-limit`. */
const CODE_LIKE = /^[A-Za-z][A-Za-z0-9]*(?:[_.:/-][A-Za-z0-9]+)*$/;
/** `type` values that describe content, not an error. */
const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link', 'json', 'object', 'tool_result', 'output_text']);

type Body = Record<string, unknown>;

function isObject(value: unknown): value is Body {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function own(obj: Body, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** A code value: a code-like string of at most 64 characters, or an integer. */
function asCode(value: unknown): string | null {
  if (typeof value === 'string') return value.length <= 64 && CODE_LIKE.test(value) ? value : null;
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return null;
}

function codeInBody(body: Body): string | null {
  for (const key of ['code', 'error_code', 'errorCode']) {
    const code = asCode(own(body, key));
    if (code !== null) return code;
  }
  const error = own(body, 'error');
  if (typeof error === 'string') {
    const code = asCode(error);
    if (code !== null) return code;
  } else if (isObject(error)) {
    for (const key of ['code', 'error_code', 'errorCode', 'type']) {
      const code = asCode(own(error, key));
      if (code !== null) return code;
    }
  }
  const type = own(body, 'type');
  const hasMessage = typeof own(body, 'message') === 'string' || own(body, 'error') !== undefined;
  if (typeof type === 'string' && hasMessage && !CONTENT_TYPES.has(type)) return asCode(type);
  return null;
}

/** The objects that may be an error body: the content, JSON inside strings, items of content arrays. */
function* bodiesOf(value: unknown, depth: number): Generator<Body> {
  if (depth > 4) return;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return;
    try {
      yield* bodiesOf(JSON.parse(trimmed) as unknown, depth + 1);
    } catch {
      // a message, not JSON
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) yield* bodiesOf(item, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  yield value;
  const text = own(value, 'text');
  if (typeof text === 'string') yield* bodiesOf(text, depth + 1);
  for (const key of ['content', 'structuredContent', 'result', 'output', 'body', 'detail']) {
    const inner = own(value, key);
    if (inner !== undefined && typeof inner !== 'string') yield* bodiesOf(inner, depth + 1);
  }
}
