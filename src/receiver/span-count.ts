/**
 * The spans of an export request, counted before it is decoded: decoding builds
 * objects for every span (16 MiB of empty protobuf spans is 8 million of them, about
 * 2 GB), so a request over the cap is refused from its bytes alone. Both counters
 * read the body once, allocate nothing per span and stop as soon as the count passes
 * `max`. They count what the decoder would find; a body they cannot follow is left
 * to the decoder to refuse.
 */

/** Spans past the cap (the count stops there), or the count. */
export type SpanCount = { readonly over: true } | { readonly over: false; readonly spans: number };

/**
 * ExportTraceServiceRequest → resource_spans (1) → scope_spans (2) → spans (2), in the
 * protobuf wire format. Fields of other numbers and wire types are skipped.
 */
export function countProtobufSpans(bytes: Uint8Array, max: number): SpanCount {
  let spans = 0;
  // Each level: the fields of one message between [start, end); `inner` is the field that holds the next level.
  const walk = (start: number, end: number, depth: number): boolean => {
    let at = start;
    while (at < end) {
      const tag = varint(bytes, at, end);
      if (tag === null) return true;
      at = tag.next;
      const field = Math.floor(tag.value / 8);
      const wire = tag.value % 8;
      if (wire === 0) {
        const skip = varint(bytes, at, end);
        if (skip === null) return true;
        at = skip.next;
      } else if (wire === 1) at += 8;
      else if (wire === 5) at += 4;
      else if (wire === 2) {
        const length = varint(bytes, at, end);
        if (length === null || length.next + length.value > end) return true;
        const inner = length.next;
        at = inner + length.value;
        const wanted = depth === 0 ? 1 : 2;
        if (field !== wanted) continue;
        if (depth === 2) {
          spans += 1;
          if (spans > max) return false;
        } else if (!walk(inner, at, depth + 1)) return false;
      } else return true;
    }
    return true;
  };
  return walk(0, bytes.length, 0) ? { over: false, spans } : { over: true };
}

/** A base-128 varint at `at` (at most 53 bits are kept exact; more is a body the decoder refuses). */
function varint(bytes: Uint8Array, at: number, end: number): { value: number; next: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = at; i < end && i < at + 10; i += 1) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: i + 1 };
    scale *= 128;
  }
  return null;
}

const PATH = ['resourceSpans', 'scopeSpans', 'spans'] as const;

/**
 * The elements of `resourceSpans[].scopeSpans[].spans[]` in OTLP JSON, read as tokens
 * (strings skipped with their escapes; a key with an escape is decoded to be compared).
 * Elements of a `spans` list count whatever they are: the decoder rejects a non-object span.
 */
export function countJsonSpans(text: string, max: number): SpanCount {
  // The stack holds, for each open container, whether it is on the path: `depth` is the
  // path step the container is at (-1 when off the path), `array` whether it is a list.
  const stack: Array<{ array: boolean; depth: number }> = [];
  let key: string | null = null;
  let spans = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const close = stringEnd(text, i);
      if (close === -1) break;
      const top = stack[stack.length - 1];
      // A string directly in an object and followed by `:` is a key.
      let j = close + 1;
      while (j < n && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x0a || text.charCodeAt(j) === 0x0d || text.charCodeAt(j) === 0x09)) j += 1;
      if (top && !top.array && text.charCodeAt(j) === 0x3a) {
        const raw = text.slice(i + 1, close);
        key = raw.includes('\\') ? decodeKey(raw) : raw;
      } else if (countValue(stack)) {
        spans += 1;
        if (spans > max) return { over: true };
      }
      i = close + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (countValue(stack)) {
        spans += 1;
        if (spans > max) return { over: true };
      }
      stack.push({ array: c === 0x5b, depth: childDepth(stack, key, c === 0x5b) });
      key = null;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c) {
      key = null;
    } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && c !== 0x3a && countValue(stack) && startsScalar(text, i)) {
      // A number, true, false or null directly in `spans`: skip it whole, count it once.
      spans += 1;
      if (spans > max) return { over: true };
      while (i + 1 < n && !',]} \n\r\t'.includes(text[i + 1]!)) i += 1;
    }
    i += 1;
  }
  return { over: false, spans };
}

/** True when a value starting now is an element of a `spans` list on the path. */
function countValue(stack: ReadonlyArray<{ array: boolean; depth: number }>): boolean {
  const top = stack[stack.length - 1];
  return top !== undefined && top.array && top.depth === PATH.length;
}

/**
 * The path step of a container opened now. The root object is step 0; a list under the
 * key of step k (in an object at step k, from a list element) is step k + 1; an object
 * in a list at step k < 3 is at step k again (the next key is looked for in it).
 */
function childDepth(stack: ReadonlyArray<{ array: boolean; depth: number }>, key: string | null, array: boolean): number {
  const top = stack[stack.length - 1];
  if (top === undefined) return array ? -1 : 0;
  if (top.depth < 0) return -1;
  if (top.array) return !array && top.depth < PATH.length ? top.depth : -1;
  return array && key === PATH[top.depth] ? top.depth + 1 : -1;
}

function startsScalar(text: string, i: number): boolean {
  return /[-0-9tfn]/.test(text[i]!);
}

/** The index of the closing quote of the string opening at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 1;
    else if (c === 0x22) return i;
  }
  return -1;
}

function decodeKey(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
