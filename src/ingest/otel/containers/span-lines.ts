/**
 * Finds, cheaply, the line where each span of a one-document file begins:
 * spans are read in document order, so the search moves forward through the
 * text to the next occurrence of the span's id as written (`"spanId": "…"` or
 * Jaeger's `"spanID": "…"`), counting newlines on the way. One linear pass in
 * total, no regular expressions. The line reported is the line of the span's
 * own id key (one or two lines below the `{` of the span object in
 * pretty-printed files). When the id is not found after the cursor, the span
 * gets the line of the cursor. One known approximation: in Jaeger exports a
 * reference to a span uses the same `"spanID"` key, so when a child is listed
 * before its parent the parent is placed on the child's reference line (a few
 * lines early); all later spans are still placed exactly.
 */
export function spanLineFinder(text: string, keys: readonly string[]): (rawSpanId: unknown) => number {
  let cursor = 0;
  let line = 1;
  const advanceTo = (index: number) => {
    for (let i = cursor; i < index; i += 1) if (text.charCodeAt(i) === 10) line += 1;
    cursor = index;
  };
  return (rawSpanId: unknown) => {
    if (typeof rawSpanId !== 'string' || rawSpanId === '') return line;
    const value = `"${rawSpanId}"`;
    let from = cursor;
    for (;;) {
      const at = text.indexOf(value, from);
      if (at === -1) return line;
      if (isKeyValue(text, at, keys)) {
        advanceTo(at);
        cursor = at + value.length;
        return line;
      }
      from = at + value.length;
    }
  };
}

/** Is the string at `at` the value of one of `keys` (`"key"` then optional spaces, `:`, optional spaces)? */
function isKeyValue(text: string, at: number, keys: readonly string[]): boolean {
  let i = at - 1;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i -= 1;
  if (text.charCodeAt(i) !== 58) return false;
  i -= 1;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i -= 1;
  return keys.some((key) => {
    const quoted = `"${key}"`;
    return text.startsWith(quoted, i - quoted.length + 1);
  });
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
