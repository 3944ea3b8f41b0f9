import { JsonLineError, parseJsonLine } from '../../io/json-line.js';
import { sanitizeText } from '../../sanitize/text.js';
import type { ParseInput, RecordSink } from '../types.js';

/** Up to `max` characters of a bad line, for a message (the reporter sanitizes it). */
export function excerpt(text: string, max = 60): string {
  // Redact first: a cut made before redaction could leave part of a secret too short to recognise.
  const head = text.length > 64 * 1024 ? text.slice(0, 64 * 1024) : text;
  return sanitizeText(head.replace(/\s+/g, ' ').trim(), { maxChars: max + 1 });
}

/**
 * Reads a JSON-lines file: blank lines are skipped; lines that are not valid
 * UTF-8, too long, not JSON, too deep or with duplicate keys become
 * `malformed-record` (or `truncated-tail` for a cut last line); every parsed
 * value goes to `onValue` with its line number.
 */
export async function forEachJsonLine(
  input: ParseInput,
  sink: RecordSink,
  onValue: (value: unknown, line: number, text: string) => void,
): Promise<void> {
  for await (const batch of input.lineBatches()) {
    for (const event of batch) {
    if (event.type === 'bad-line') {
      const tail = !event.terminated && event.code === 'invalid-utf8';
      sink.diagnostic({
        ruleId: tail ? 'truncated-tail' : 'malformed-record',
        line: event.line,
        message: tail ? `last line is cut short: ${event.detail}` : event.detail,
      });
      continue;
    }
    const text = event.text;
    if (isBlank(text)) continue;
    const parsed = parseJsonLine(text, input.limits.maxDepth, input.limits.maxRecordKeys);
    if (parsed instanceof JsonLineError) {
      const tail = !event.terminated && parsed.code === 'not-json';
      if (parsed.code === 'too-many-keys') {
        sink.diagnostic({ ruleId: 'too-many-keys', line: event.line, message: parsed.reason });
        continue;
      }
      sink.diagnostic({
        ruleId: tail ? 'truncated-tail' : 'malformed-record',
        line: event.line,
        message: tail
          ? `last line is cut short (no final newline, incomplete JSON): "${excerpt(text)}"`
          : `${parsed.reason}: "${excerpt(text)}"`,
      });
      continue;
    }
    sink.value?.(parsed, event.line);
    onValue(parsed, event.line, text);
    }
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
