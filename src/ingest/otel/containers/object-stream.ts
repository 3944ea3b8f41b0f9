import { limitText } from '../../../io/limits.js';
import { eachLine, type ParseInput, type RecordSink } from '../../types.js';

/**
 * JSON objects written one after another, each over several lines, with no list
 * around them and no separator (what the OpenTelemetry SDK's ConsoleSpanExporter
 * prints: one `span.to_json()` per span). Lines are gathered until the braces
 * opened on the object's first line close (strings and escapes respected), then
 * the object is parsed and handed on with the line it starts on. Memory: one
 * object, capped at the line limit; a bigger or broken object is one
 * `malformed-record` and reading resumes at the next line that opens an object
 * at its first column. Lines outside any object are counted in one finding.
 */
export async function forEachStreamedObject(input: ParseInput, sink: RecordSink, onValue: (value: unknown, line: number) => void): Promise<void> {
  let parts: string[] = [];
  let bytes = 0;
  let start = 0;
  const brackets: BracketState = { depth: 0, inString: false, escaped: false };
  /** After a broken object: its remaining lines are passed over until an object opens at column 1. */
  let skipping = false;
  let outside = 0;
  let firstOutside = 0;
  const reset = () => {
    parts = [];
    bytes = 0;
    brackets.depth = 0;
    brackets.inString = false;
    brackets.escaped = false;
  };
  const fail = (line: number, message: string) => {
    sink.diagnostic({ ruleId: 'malformed-record', line, message });
    reset();
    skipping = true;
  };
  for await (const event of eachLine(input)) {
    if (event.type === 'bad-line') {
      fail(event.line, event.detail);
      continue;
    }
    const text = event.text;
    if (parts.length === 0) {
      if (text.trim() === '') continue;
      const opens = text.startsWith('{') || (!skipping && text.trimStart().startsWith('{'));
      if (!opens) {
        if (!skipping) {
          if (outside === 0) firstOutside = event.line;
          outside += 1;
        }
        continue;
      }
      skipping = false;
      start = event.line;
    }
    parts.push(text);
    bytes += text.length + 1;
    countBrackets(text, brackets);
    if (bytes > input.limits.maxLineBytes) {
      fail(start, `object starting here is longer than the ${limitText('maxLineBytes', input.limits.maxLineBytes)}`);
      continue;
    }
    if (brackets.depth > 0) continue;
    const body = parts.join('\n');
    reset();
    const parsed = parseObject(body);
    if (parsed.ok) onValue(parsed.value, start);
    else fail(start, `object starting here is not JSON: ${parsed.message}`);
  }
  if (outside > 0) sink.diagnostic({ ruleId: 'malformed-record', line: firstOutside, message: `${outside} line(s) outside any span object were skipped` });
  if (parts.length > 0) sink.diagnostic({ ruleId: 'truncated-tail', line: start, message: 'the last object is cut short (its braces never close)' });
}

/** How deep in brackets an object's lines so far leave it, and whether they end inside a string (or its escape). */
interface BracketState {
  depth: number;
  inString: boolean;
  escaped: boolean;
}

/** Moves `state` over one line of an object (strings and escapes respected). */
function countBrackets(text: string, state: BracketState): void {
  let { depth, inString, escaped } = state;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth += 1;
    else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  state.depth = depth;
  state.inString = inString;
  state.escaped = escaped;
}

function parseObject(body: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
