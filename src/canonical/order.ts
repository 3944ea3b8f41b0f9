/** Code-unit order, as RFC 8785 §3.2.3 requires (not locale order, not code-point order). */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Python's sort order for str keys: by code point (not UTF-16 code unit). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca - cb;
    i += ca > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

/** Sorts keys in code-unit order, in place: small objects (most) by insertion, without the copy Array.sort makes. */
export function sortCodeUnits(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort(compareUtf16);
    return;
  }
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j -= 1;
    }
    keys[j + 1] = key;
  }
}
