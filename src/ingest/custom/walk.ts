import { JsonLineError, parseJsonLine } from '../../io/json-line.js';
import { limitText, type SizeLimit } from '../../io/limits.js';
import type { JsonPath } from '../read/json-locate.js';
import type { Selector } from './query.js';

/**
 * A node a query reached: its value, the value its path is in (the record, or the
 * JSON text a `json` step parsed) and that path, and the text node it was parsed
 * from (null in the record itself). `parent` climbs the path, and out of parsed text
 * to the object holding the text.
 */
export interface Node {
  readonly value: unknown;
  readonly root: unknown;
  readonly location: JsonPath;
  readonly outer: Node | null;
}

/**
 * What the queries of one record run with: the record (the `record` step), and the
 * budget of JSON text `json` steps may parse in it. The budget is the record's own
 * limit (a line's limits.max-line-bytes, a document's limits.max-document-bytes),
 * each distinct text counted once (parsed once, kept for the other queries of the
 * record); each parsed text is held to limits.max-depth and limits.max-record-keys.
 */
export class RecordQueries {
  private left: number;
  private readonly parsed = new Map<string, unknown>();
  /** Texts a `json` step could not parse (not JSON): counted, for the mapping's own check. */
  notJson = 0;

  constructor(
    readonly record: unknown,
    private readonly limit: { readonly key: SizeLimit; readonly bytes: number; readonly maxDepth: number; readonly maxKeys: number },
  ) {
    this.left = limit.bytes;
  }

  /** The record as the first node of a query. */
  get top(): Node {
    return { value: this.record, root: this.record, location: [], outer: null };
  }

  /** The value of JSON text, or undefined when it is not JSON (or is past the depth or key cap). Throws past the budget. */
  parse(text: string): unknown {
    if (this.parsed.has(text)) return this.parsed.get(text);
    this.left -= Buffer.byteLength(text, 'utf8');
    if (this.left < 0) throw new Error(`JSON text past the ${limitText(this.limit.key, this.limit.bytes)}`);
    const value = parseJsonLine(text, this.limit.maxDepth, this.limit.maxKeys);
    const result = value instanceof JsonLineError ? undefined : value;
    if (result === undefined) this.notJson += 1;
    this.parsed.set(text, result);
    return result;
  }
}

/** Every node the query reaches from `from`, in document order. */
export function selectNodes(selector: Selector, from: Node, q: RecordQueries): Node[] {
  let nodes: Node[] = [from];
  for (const step of selector.steps) {
    const next: Node[] = [];
    for (const node of nodes) {
      if (step.kind === 'record') next.push(q.top);
      else if (step.kind === 'parent') {
        const up = parentOf(node);
        if (up !== null) next.push(up);
      } else if (step.kind === 'json') {
        const inner = parsedNode(node, q);
        if (inner !== null) next.push(inner);
      } else {
        for (const hit of step.query.query(node.value as never).nodes) {
          next.push({ value: hit.value as unknown, root: node.root, location: [...node.location, ...hit.location], outer: node.outer });
        }
      }
    }
    nodes = next;
  }
  return nodes;
}

/** The first node's value, or undefined when the query reaches nothing. */
export function selectFirst(selector: Selector | undefined, from: Node, q: RecordQueries): unknown {
  if (selector === undefined) return undefined;
  const only = selector.steps.length === 1 ? selector.steps[0]! : null;
  if (only?.kind === 'path') return only.query.match(from.value as never)?.value as unknown;
  return selectNodes(selector, from, q)[0]?.value;
}

/** Where a node is in the record: its path, or the path of the text it was parsed from. */
export function recordLocation(node: Node): JsonPath {
  let n = node;
  while (n.outer !== null) n = n.outer;
  return n.location;
}

/** JSON text parsed (an object or list already parsed is taken as is; a scalar that is not JSON text: nothing). */
function parsedNode(node: Node, q: RecordQueries): Node | null {
  const v = node.value;
  if (v !== null && typeof v === 'object') return node;
  if (typeof v !== 'string') return null;
  const value = q.parse(v);
  return value === undefined ? null : { value, root: value, location: [], outer: node };
}

/** The nearest object holding the node (lists passed over), or null at the top of the record. */
function parentOf(node: Node): Node | null {
  let n: Node | null = node;
  while (n !== null) {
    for (let end = n.location.length - 1; end >= 0; end -= 1) {
      const location = n.location.slice(0, end);
      const value = valueAt(n.root, location);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { value, root: n.root, location, outer: n.outer };
    }
    n = n.outer;
  }
  return null;
}

function valueAt(root: unknown, location: JsonPath): unknown {
  let v = root;
  for (const key of location) v = (v as Record<string | number, unknown>)[key];
  return v;
}
