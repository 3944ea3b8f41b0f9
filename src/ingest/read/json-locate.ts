/** A path into a JSON document: object keys and array indexes. */
export type JsonPath = ReadonlyArray<string | number>;

/** The 1-based line where the object or array at a path begins; 1 (or the `missing` given to indexLines) when it is not indexed. */
export type LineOf = (path: JsonPath) => number;

const MAX_ENTRIES = 2_000_000;

/**
 * Indexes a JSON text (already known to parse) in one pass: the line where each
 * object or array begins, for containers up to `maxDepth` levels deep. Parsers
 * of one-document formats use it to point findings at the message or item
 * instead of line 1. Keys are matched as written (escaped keys are unescaped).
 * `jumps` add lines at character offsets (a text with parts taken out: the rest
 * of a streamed document, src/io/json-stream/, where each list's items were).
 */
export function indexLines(text: string, maxDepth: number, missing = 1, jumps: ReadonlyArray<{ readonly at: number; readonly lines: number }> = []): LineOf {
  const lines = new Map<string, number>();
  const path: Array<string | number> = [];
  // Per open container: is it an array (then the top of `path` is its index)?
  const arrays: boolean[] = [];
  let line = 1;
  let pendingKey: string | null = null;
  let i = 0;
  const n = text.length;
  let jump = 0;
  const cursor: StringEnd = { end: 0, lines: 0 };
  while (i < n) {
    while (jump < jumps.length && i >= jumps[jump]!.at) line += jumps[jump++]!.lines;
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line += 1;
      i += 1;
    } else if (c === 0x22) {
      const key = readKey(text, i, cursor);
      line += cursor.lines;
      i = cursor.end;
      if (key !== null && !arrays[arrays.length - 1]) {
        pendingKey = key;
        i += 1;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (arrays.length > 0) {
        if (arrays[arrays.length - 1]) {
          // array element: its index is already on the path
        } else if (pendingKey !== null) path.push(pendingKey);
      }
      if (path.length <= maxDepth && lines.size < MAX_ENTRIES) lines.set(path.join('\u0000'), line);
      arrays.push(c === 0x5b);
      if (c === 0x5b) path.push(0);
      pendingKey = null;
      i += 1;
    } else if (c === 0x7d || c === 0x5d) {
      if (arrays.pop()) path.pop();
      if (arrays.length > 0 && !arrays[arrays.length - 1]) path.pop();
      i += 1;
    } else if (c === 0x2c) {
      if (arrays[arrays.length - 1]) path[path.length - 1] = (path[path.length - 1] as number) + 1;
      pendingKey = null;
      i += 1;
    } else i += 1;
  }
  return (target) => lines.get(target.join('\u0000')) ?? missing;
}

/** Where a string token ends: the offset after it and its trailing whitespace, and the newlines crossed. */
interface StringEnd {
  end: number;
  lines: number;
}

/**
 * Reads the string that opens at `start`: sets `cursor` to the offset of the next
 * token after it (the colon when it is a key) and the newlines skipped; returns the
 * key (unescaped) when a colon follows, else null. One reused cursor: no object per string.
 */
function readKey(text: string, start: number, cursor: StringEnd): string | null {
  const n = text.length;
  const j = closingQuote(text, start);
  let k = j + 1;
  let lines = 0;
  while (k < n && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09 || text.charCodeAt(k) === 0x0d || text.charCodeAt(k) === 0x0a)) {
    if (text.charCodeAt(k) === 0x0a) lines += 1;
    k += 1;
  }
  cursor.end = k;
  cursor.lines = lines;
  if (text.charCodeAt(k) !== 0x3a) return null;
  const raw = text.slice(start + 1, j);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/** The offset of the quote that closes the string opening at `start` (the text's length when none does): found by indexOf, not char by char. */
function closingQuote(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q === -1) return text.length;
    let b = q - 1;
    while (b > start && text.charCodeAt(b) === 0x5c) b -= 1;
    // An even run of backslashes before it is escaped backslashes: the quote ends the string.
    if ((q - 1 - b) % 2 === 0) return q;
    from = q + 1;
  }
}
