const NEWLINE = 0x0a;
const CR = 0x0d;
/** Repeats of a blank line a stretch is compared with (made on first use; longer stretches take several compares). */
const RUN_BYTES = 1024 * 1024;
/** The longest blank line a stretch is compared against as a repeating pattern. */
const MAX_PERIOD = 64;
const MAX_PATTERNS = 8;
const patterns = new Map<string, Buffer>();

/** Space, tab or CR: what a blank line may hold besides its newline. */
export function isBlankByte(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === CR;
}

/**
 * The number of lines in `chunk[start..stop]` (`stop` is a newline) when every byte is
 * a space, tab, CR or newline; -1 otherwise. A newline bomb repeats one blank line
 * (`\n`, ` \n`, `\r\n`, ` \t \r\n`, ...): the stretch is compared with that line
 * repeated, natively (memcmp speed); what does not repeat takes a loop over bytes.
 */
export function blankLines(chunk: Buffer, start: number, stop: number): number {
  let lines = 0;
  let at = start;
  const end = stop + 1;
  const first = chunk.indexOf(NEWLINE, start);
  const period = first + 1 - start;
  if (period <= MAX_PERIOD && blankBytes(chunk, start, first)) {
    const pattern = repeated(chunk.subarray(start, first + 1));
    while (end - at >= period) {
      const n = Math.min(pattern.length, end - at - ((end - at) % period));
      if (pattern.compare(chunk, at, at + n, 0, n) !== 0) break;
      lines += n / period;
      at += n;
    }
  }
  for (let i = at; i < end; i += 1) {
    const c = chunk[i]!;
    if (c === NEWLINE) lines += 1;
    else if (!isBlankByte(c)) return -1;
  }
  return lines;
}

/** About RUN_BYTES of `line` repeated (a few patterns are kept: a file repeats one). */
function repeated(line: Buffer): Buffer {
  const key = line.toString('latin1');
  let pattern = patterns.get(key);
  if (pattern === undefined) {
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    pattern = Buffer.from(key.repeat(Math.floor(RUN_BYTES / line.length)), 'latin1');
    patterns.set(key, pattern);
  }
  return pattern;
}

/** Nothing but spaces, tabs and CRs (what every reader skips as a blank line). */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    if (!isBlankByte(text.charCodeAt(i))) return false;
  }
  return true;
}

/** `chunk[from..end)` holds nothing but spaces, tabs and CRs. */
export function blankBytes(chunk: Buffer, from: number, end: number): boolean {
  for (let i = from; i < end; i += 1) {
    if (!isBlankByte(chunk[i]!)) return false;
  }
  return true;
}

/**
 * The lines from `start` on that repeat the blank line beginning there (`\n`, ` \n`,
 * `\r\n`, ...), as far as `chunk` holds whole ones: how many, and the offset after the
 * last. Compared natively with the line repeated, in windows that halve where the run
 * ends, so a stretch costs a few compares however long it is. `{ lines: 0 }` when the
 * line at `start` is not blank or not complete in `chunk`.
 */
export function blankRun(chunk: Buffer, start: number): { lines: number; end: number } {
  const first = chunk.indexOf(NEWLINE, start);
  const period = first + 1 - start;
  if (first === -1 || period > MAX_PERIOD || !blankBytes(chunk, start, first)) return { lines: 0, end: start };
  const pattern = repeated(chunk.subarray(start, first + 1));
  let at = start;
  let window = pattern.length;
  while (window >= period) {
    const n = Math.min(window, chunk.length - at - ((chunk.length - at) % period));
    if (n >= period && pattern.compare(chunk, at, at + n, 0, n) === 0) at += n;
    else window = Math.floor(Math.min(window, n) / 2 / period) * period;
  }
  return { lines: (at - start) / period, end: at };
}
