import { estimateTokens } from './token-estimate.js';

/**
 * Finds a stack trace in a piece of text and says which runtime printed it,
 * how many frames it has and what it costs in tokens. Line-based: every
 * language needs an anchor that ordinary prose does not produce (a header like
 * `Traceback (most recent call last):`, or frames shaped `at fn (file:1:2)`),
 * and a lone frame-like line counts only next to such a header.
 */

export type TraceLanguage = 'rust' | 'go' | 'python' | 'java' | 'dotnet' | 'ruby' | 'javascript';

export interface StackTrace {
  readonly language: TraceLanguage;
  readonly frames: number;
  /**
   * Characters of the block the model re-reads: the trace's first line to its
   * last, with the DETAIL, CONTEXT and HINT lines (and their indented
   * continuations) a database error prints under the exception line.
   */
  readonly chars: number;
  /** What one reading of that block costs: estimateTokens (token-estimate.ts). */
  readonly tokens: number;
}

interface Span {
  readonly frames: number;
  readonly first: number;
  readonly last: number;
}

type Detector = (lines: readonly string[]) => Span | null;

const RUST_HEADER = /^thread '[^']*'(?: \(\d+\))? panicked at /;
const RUST_FRAME = /^\s*\d+: \S/;
const GO_HEADER = /^goroutine \d+ \[[^\]]+\]:$/;
const GO_FILE = /^\t\S.*:\d+(?: \+0x[0-9a-f]+)?$/;
const PY_HEADER = /^\s*Traceback \(most recent call last\):\s*$/;
const PY_FRAME = /^\s*File "[^"\n]+", line \d+(?:, in \S.*)?$/;
const JAVA_FRAME = /^\s*at (?:[\w$/<>-]+\.)+[\w$<>-]+\((?:[\w$.-]+\.(?:java|kt|kts|scala|groovy|clj):\d+|Native Method|Unknown Source)\)$/;
const JAVA_TAIL = /^\s*(?:Caused by: |Suppressed: |\.\.\. \d+ more$)/;
const DOTNET_PARAM = '[\\w.`<>\\[\\],&*]+ \\w+';
const DOTNET_FRAME = new RegExp(`^\\s*at (?:[\\w\`<>+\\[\\],|]+\\.)+[\\w\`<>\\[\\],|]+\\((?:${DOTNET_PARAM}(?:, ${DOTNET_PARAM})*)?\\)(?: in .+:line \\d+)?\\s*$`);
const DOTNET_IN_FILE = / in .+:line \d+\s*$/;
const DOTNET_MARK = /^\s*--- End of (?:inner exception )?stack trace/;
const RUBY_FRAME = /^\s*(?:from )?(\S+):\d+:in [`'][^`'\n]+'/;
const JS_FRAME_NAMED = /^\s+at (?:async )?(?:new )?[^()\n]+? \((?:.+:\d+:\d+|<anonymous>|native)\)\s*\{?$/;
const JS_FRAME_BARE = /^\s+at (?:async )?(?=\S*[/\\.])\S+:\d+:\d+\s*\{?$/;
const ERROR_HEADER = /^\s*(?:Uncaught |Unhandled exception\. |Exception in thread "[^"]*" )?[\w$.]*(?:Error|Exception)(?: \[\w+\])?:/;

/** Indices of lines matching a pattern. */
function matching(lines: readonly string[], re: RegExp, from = 0): number[] {
  const out: number[] = [];
  for (let i = from; i < lines.length; i++) if (re.test(lines[i]!)) out.push(i);
  return out;
}

/** The line before `at` when it is an error header (`TypeError: …`), else `at`. */
function withHeader(lines: readonly string[], at: number): number {
  return at > 0 && ERROR_HEADER.test(lines[at - 1]!) ? at - 1 : at;
}

const rust: Detector = (lines) => {
  const header = lines.findIndex((line) => RUST_HEADER.test(line));
  if (header === -1) return null;
  const start = lines.findIndex((line, i) => i > header && /^stack backtrace:$/.test(line));
  if (start === -1) return { frames: 1, first: header, last: Math.min(header + 1, lines.length - 1) };
  let last = start;
  let frames = 0;
  for (let i = start + 1; i < lines.length; i++) {
    if (RUST_FRAME.test(lines[i]!)) frames++;
    else if (!/^\s+at \S/.test(lines[i]!)) break;
    last = i;
  }
  return { frames: Math.max(frames, 1), first: header, last };
};

const go: Detector = (lines) => {
  const header = lines.findIndex((line) => GO_HEADER.test(line));
  if (header === -1) return null;
  const files = matching(lines, GO_FILE, header + 1);
  if (files.length === 0) return null;
  const panic = lines.findIndex((line, i) => i < header && /^(?:panic|fatal error): /.test(line));
  return { frames: files.length, first: panic === -1 ? header : panic, last: files[files.length - 1]! };
};

const python: Detector = (lines) => {
  const frames = matching(lines, PY_FRAME);
  const header = lines.findIndex((line) => PY_HEADER.test(line));
  if (frames.length === 0 || (header === -1 && frames.length < 2)) return null;
  let last = frames[frames.length - 1]!;
  // The source lines and carets under the last frame, then the exception line.
  while (last + 1 < lines.length && /^\s+\S/.test(lines[last + 1]!)) last++;
  if (last + 1 < lines.length && lines[last + 1]!.trim() !== '') last++;
  return { frames: frames.length, first: header === -1 ? frames[0]! : Math.min(header, frames[0]!), last };
};

const java: Detector = (lines) => {
  const frames = matching(lines, JAVA_FRAME);
  if (frames.length === 0) return null;
  let last = frames[frames.length - 1]!;
  while (last + 1 < lines.length && JAVA_TAIL.test(lines[last + 1]!)) last++;
  return { frames: frames.length, first: withHeader(lines, frames[0]!), last };
};

const dotnet: Detector = (lines) => {
  const frames = matching(lines, DOTNET_FRAME);
  if (frames.length === 0) return null;
  const anchored = frames.some((i) => DOTNET_IN_FILE.test(lines[i]!)) || withHeader(lines, frames[0]!) !== frames[0];
  if (frames.length < 2 && !anchored) return null;
  let last = frames[frames.length - 1]!;
  while (last + 1 < lines.length && DOTNET_MARK.test(lines[last + 1]!)) last++;
  return { frames: frames.length, first: withHeader(lines, frames[0]!), last };
};

const ruby: Detector = (lines) => {
  const frames = matching(lines, RUBY_FRAME);
  if (frames.length === 0) return null;
  const rb = frames.some((i) => /\.rb$/.test(RUBY_FRAME.exec(lines[i]!)![1]!));
  if (frames.length < 2 && !rb) return null;
  return { frames: frames.length, first: frames[0]!, last: frames[frames.length - 1]! };
};

const javascript: Detector = (lines) => {
  const frames = lines.flatMap((line, i) => (JS_FRAME_NAMED.test(line) || JS_FRAME_BARE.test(line) ? [i] : []));
  if (frames.length === 0) return null;
  const first = withHeader(lines, frames[0]!);
  if (frames.length < 2 && first === frames[0]) return null;
  return { frames: frames.length, first, last: frames[frames.length - 1]! };
};

/** Most specific anchor first: a Rust backtrace's `at file:1:2` lines must not read as JavaScript. */
const DETECTORS: ReadonlyArray<readonly [TraceLanguage, Detector]> = [
  ['rust', rust],
  ['go', go],
  ['python', python],
  ['java', java],
  ['dotnet', dotnet],
  ['ruby', ruby],
  ['javascript', javascript],
];

/** What an exception prints under its last line: `DETAIL:`, `CONTEXT:`, `HINT:` lines and their indented continuations. */
const DETAIL_LINE = /^(?:[A-Z][A-Z ]{1,20}:\s|\s+\S)/;

const MAX_TEXT = 2 * 1024 * 1024;
/** No frame or header is this long; longer lines are not matched (keeps every pattern linear). */
const MAX_LINE = 2000;

/**
 * The stack trace in `text`, or null. A text without a line break cannot hold
 * one, unless its line breaks are escaped (a backslash and `n`, as in a repr or
 * a log line): then the unescaped text is read.
 */
export function detectStackTrace(text: string): StackTrace | null {
  if (text.length > MAX_TEXT) return null;
  if (!text.includes('\n')) {
    if (!/\\n/.test(text)) return null;
    text = text.replace(/\\r\\n|\\n/g, '\n').replace(/\\t/g, '\t');
  }
  const lines = text.split(/\r?\n/);
  const probe = lines.map((line) => (line.length > MAX_LINE ? '' : line));
  for (const [language, detect] of DETECTORS) {
    const span = detect(probe);
    if (!span) continue;
    let last = span.last;
    while (last + 1 < lines.length && DETAIL_LINE.test(probe[last + 1]!)) last += 1;
    const block = lines.slice(span.first, last + 1).join('\n');
    return { language, frames: span.frames, chars: block.length, tokens: estimateTokens(block) };
  }
  return null;
}
