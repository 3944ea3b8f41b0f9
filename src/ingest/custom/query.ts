import { JSONPathEnvironment, type JSONPathQuery } from 'json-p3';
import type { JsonPath } from '../read/json-locate.js';

/**
 * The query language of a `formats:` mapping: RFC 9535 JSONPath, read by json-p3
 * (no eval of the query, no code from the configuration: a query is parsed into
 * selectors and walked). Its cost is bounded so that a configuration from a fork
 * cannot make an audit hang:
 * - no regular expressions: the RFC's `match()` and `search()` are not offered (a
 *   pattern such as `(a+)+$` backtracks for exponential time); `length()`,
 *   `count()` and `value()` are, with every comparison and logical operator;
 * - at most one descendant segment (`..`) per query: one walk of the value, not a
 *   walk per node of a walk;
 * - a query runs on one record (a line, capped by limits.max-line-bytes) or one
 *   document (capped by limits.max-document-bytes), whose nesting the JSON reader
 *   caps at limits.max-depth.
 */
const environment = new JSONPathEnvironment({ maxRecursionDepth: 100_000 });
environment.functionRegister.delete('match');
environment.functionRegister.delete('search');

/** Descendant segments a query may have (see above). */
export const MAX_DESCENDANT_SEGMENTS = 1;

/** A compiled query with its text (for messages). */
export interface Selector {
  readonly text: string;
  readonly query: JSONPathQuery;
}

/** The query compiled, or why it cannot be used: a message for a `config` error. */
export function compileSelector(text: string): Selector | string {
  const descendants = descendantSegments(text);
  if (descendants > MAX_DESCENDANT_SEGMENTS) {
    return `${JSON.stringify(text)} has ${descendants} descendant segments (..); a query may have at most ${MAX_DESCENDANT_SEGMENTS}, so that its cost stays one walk of the record`;
  }
  try {
    return { text, query: environment.compile(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/no such function '(match|search)'/.test(message)) {
      return `${JSON.stringify(text)}: match() and search() are not offered (a regular expression from a configuration can take exponential time); compare with == instead`;
    }
    return `${JSON.stringify(text)} is not an RFC 9535 JSONPath query: ${message}`;
  }
}

/** `compileSelector` for a query already accepted by the configuration's schema. */
export function selectorOf(text: string): Selector {
  const compiled = compileSelector(text);
  if (typeof compiled === 'string') throw new Error(`a formats query was not validated: ${compiled}`);
  return compiled;
}

/** One node a query selected: its value and where it is in the queried value. */
export interface Hit {
  readonly value: unknown;
  readonly location: JsonPath;
}

/** Every node the query selects in `value`, in document order. */
export function selectAll(selector: Selector, value: unknown): Hit[] {
  return selector.query.query(value as never).nodes.map((node) => ({ value: node.value as unknown, location: node.location }));
}

/** The first node's value, or undefined when the query selects nothing. */
export function selectFirst(selector: Selector | undefined, value: unknown): unknown {
  if (selector === undefined) return undefined;
  return selector.query.match(value as never)?.value as unknown;
}

/** Descendant segments (`..`) of a query, outside its string literals. */
export function descendantSegments(text: string): number {
  let count = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '.' && text[i + 1] === '.') {
      count += 1;
      i += 1;
    }
  }
  return count;
}
