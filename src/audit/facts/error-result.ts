import type { HeldResult, HeldTrace } from '../../model/run.js';
import { detectStackTrace, type StackTrace } from '../text/stack-trace.js';
import { forEachString } from './walk-strings.js';

/**
 * Whether a tool result is an error result, for every rule that asks (the
 * error-hygiene rules, and the retry test of redundant-call): flagged as one by
 * its record (is_error, a failing status, exit code or HTTP status), or carrying
 * an error in its content although nothing flagged it, as several frameworks
 * serialise a caught exception: a stack trace in any of its strings, a body
 * whose `error` member is set, or a text that opens with an exception line
 * (`asyncpg.exceptions.InvalidTextRepresentationError: …`, `TypeError: …`).
 */
export function isErrorResult(result: HeldResult): boolean {
  return result.isError || result.errorInContent;
}

/** An exception line: a dotted class name ending in Error or Exception, then a colon (or the traceback header). */
const EXCEPTION_LINE = /^(?:Traceback \(most recent call last\):|(?:Uncaught |Unhandled exception\. )?(?:[A-Za-z_$][\w$]*\.)*(?:[A-Za-z_$][\w$]*)?(?:Error|Exception)(?: \[\w+\])?: \S)/;
/** Fields whose text is the body of a result, where an opening exception line means the call failed. */
const BODY_FIELD = /(?:^|[.\]>])(?:text|message|msg|error|detail|output|result|content|stderr)$|^$|^\[\d+\]$/;

/** What a result's content says of itself (see contentFacts). */
export interface ContentFacts {
  /** The content alone says the call failed. */
  readonly isError: boolean;
  /** The stack trace with the most frames among its strings, and where it is (when asked for). */
  readonly stackTrace: HeldTrace | null;
}

const NO_FACTS: ContentFacts = { isError: false, stackTrace: null };

/**
 * Whether the content alone says the call failed and, with `wantTrace`, its longest
 * stack trace: taken once, when the result arrives (hold.ts), in one walk of its
 * strings that asks detectStackTrace once a string.
 */
export function contentFacts(content: unknown, wantTrace: boolean): ContentFacts {
  if (content === undefined || content === null) return NO_FACTS;
  let found = hasErrorMember(content);
  if (found && !wantTrace) return { isError: true, stackTrace: null };
  let best: { trace: StackTrace; path: string } | null = null;
  forEachString(content, (path, text) => {
    if (found && !wantTrace) return;
    const trace = detectStackTrace(text);
    if (trace !== null) {
      found = true;
      // On a tie, the decoded inside of a JSON string is the more precise place.
      if (wantTrace && (best === null || trace.frames > best.trace.frames || (trace.frames === best.trace.frames && path.startsWith(`${best.path}<json>`)))) best = { trace, path };
    } else if (!found && BODY_FIELD.test(path)) {
      const head = firstLine(text);
      if (head !== null && EXCEPTION_LINE.test(head)) found = true;
    }
  });
  if (best === null) return found ? { isError: true, stackTrace: null } : NO_FACTS;
  const { trace, path } = best as { trace: StackTrace; path: string };
  return { isError: true, stackTrace: { language: trace.language, frames: trace.frames, tokens: trace.tokens, path } };
}

/** A body object (or the JSON text of one) whose `error` member is set: `{"error": "…"}`, `{"error": {"code": …}}`. */
function hasErrorMember(content: unknown): boolean {
  let body = content;
  if (typeof body === 'string') {
    const trimmed = body.trim();
    if (!trimmed.startsWith('{')) return false;
    try {
      body = JSON.parse(trimmed) as unknown;
    } catch {
      return false;
    }
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, 'error')) return false;
  const error = (body as Record<string, unknown>)['error'];
  return error !== null && error !== false && error !== '' && error !== undefined;
}

/** The first non-blank line of a text, trimmed; null for a blank text. */
function firstLine(text: string): string | null {
  const start = text.search(/\S/);
  if (start === -1) return null;
  const end = text.indexOf('\n', start);
  return (end === -1 ? text.slice(start) : text.slice(start, end)).trim();
}
