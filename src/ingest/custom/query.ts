import { JSONPathEnvironment, type JSONPathQuery } from 'json-p3';

/**
 * The query language of a `formats:` mapping: RFC 9535 JSONPath, read by json-p3
 * (no eval of the query, no code from the configuration: a query is parsed into
 * selectors and walked), in steps joined by `|` (see `Step`): a step is a JSONPath
 * query, or one of the words `json` (parse the JSON text of each node), `parent`
 * (the object holding the node) and `record` (the record the item came from). Its
 * cost is bounded so that a configuration from a fork cannot make an audit hang:
 * - no regular expressions: the RFC's `match()` and `search()` are not offered (a
 *   pattern such as `(a+)+$` backtracks for exponential time); `length()`,
 *   `count()` and `value()` are, with every comparison and logical operator;
 * - at most one descendant segment (`..`) per JSONPath step: one walk of the value,
 *   not a walk per node of a walk;
 * - a query runs on one record (a line, capped by limits.max-line-bytes, or a
 *   document, capped by limits.max-document-bytes), whose nesting the reader caps
 *   at limits.max-depth; JSON text parsed by `json` counts toward the same cap
 *   (src/ingest/custom/walk.ts).
 */
const environment = new JSONPathEnvironment({ maxRecursionDepth: 100_000 });
environment.functionRegister.delete('match');
environment.functionRegister.delete('search');

/** Descendant segments a JSONPath step may have (see above). */
export const MAX_DESCENDANT_SEGMENTS = 1;

/** One step of a query: a JSONPath query, or a word. */
export type Step =
  | { readonly kind: 'path'; readonly text: string; readonly query: JSONPathQuery }
  /** Each node holding JSON text is parsed, and the query goes on in what it holds (an object or list is taken as is). */
  | { readonly kind: 'json' }
  /** The object that holds the node (for an item of a list, the object holding the list). */
  | { readonly kind: 'parent' }
  /** The record the item came from (a JSONL line, a document): the query's first step only. */
  | { readonly kind: 'record' };

/** A compiled query with its text (for messages). */
export interface Selector {
  readonly text: string;
  readonly steps: readonly Step[];
}

const WORDS = new Set(['json', 'parent', 'record']);

/** The query compiled, or why it cannot be used: a message for a `config` error. */
export function compileSelector(text: string): Selector | string {
  const parts = splitSteps(text);
  const steps: Step[] = [];
  for (const [i, raw] of parts.entries()) {
    const part = raw.trim();
    if (WORDS.has(part)) {
      if (part === 'record' && i > 0) return `${JSON.stringify(text)}: "record" can only be the first step (the record the item came from)`;
      steps.push({ kind: part as 'json' | 'parent' | 'record' });
      continue;
    }
    const compiled = compilePath(part, text);
    if (typeof compiled === 'string') return parts.length > 1 ? `${compiled} (each step between | is a JSONPath query, or json, parent or record)` : compiled;
    steps.push(compiled);
  }
  if (steps.length === 0) return `${JSON.stringify(text)} is empty`;
  return { text, steps };
}

function compilePath(part: string, whole: string): Step | string {
  const descendants = descendantSegments(part);
  const quoted = JSON.stringify(part === whole.trim() ? whole : part);
  if (descendants > MAX_DESCENDANT_SEGMENTS) {
    return `${quoted} has ${descendants} descendant segments (..); a query may have at most ${MAX_DESCENDANT_SEGMENTS}, so that its cost stays one walk of the record`;
  }
  try {
    return { kind: 'path', text: part, query: environment.compile(part) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/no such function '(match|search)'/.test(message)) {
      return `${quoted}: match() and search() are not offered (a regular expression from a configuration can take exponential time); compare with == instead`;
    }
    return `${quoted} is not an RFC 9535 JSONPath query: ${message}`;
  }
}

/** `compileSelector` for a query already accepted by the configuration's schema. */
export function selectorOf(text: string): Selector {
  const compiled = compileSelector(text);
  if (typeof compiled === 'string') throw new Error(`a formats query was not validated: ${compiled}`);
  return compiled;
}

/** The steps of a query: split at each `|` outside string literals that is not half of `||`. */
export function splitSteps(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  forEachUnquoted(text, (i) => {
    if (text[i] !== '|') return 0;
    if (text[i + 1] === '|') return 1;
    parts.push(text.slice(start, i));
    start = i + 1;
    return 0;
  });
  parts.push(text.slice(start));
  return parts;
}

/** Descendant segments (`..`) of a query, outside its string literals. */
export function descendantSegments(text: string): number {
  let count = 0;
  forEachUnquoted(text, (i) => {
    if (text[i] !== '.' || text[i + 1] !== '.') return 0;
    count += 1;
    return 1;
  });
  return count;
}

/** Calls `at` with the index of each character outside the query's string literals; it returns how many characters to pass over after it. */
function forEachUnquoted(text: string, at: (i: number) => number): void {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else i += at(i);
  }
}
