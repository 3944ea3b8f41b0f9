import type { Document, LineCounter } from 'yaml';
import { JsonLineError, shapeProblem } from '../../io/json-line.js';
import { limitText, type ReadLimits } from '../../io/limits.js';
import type { JsonPath } from './json-locate.js';
import { aliasExpansion, type YamlKinds } from './yaml-aliases.js';

/** One YAML document of a file, read: its value, its parsed node tree, and where it begins. */
export interface YamlDocument {
  readonly value: unknown;
  readonly doc: Document.Parsed;
  /** The 1-based line where it begins. */
  readonly line: number;
  /** The line where the node at a path begins (the nearest node holding it), or `line`. */
  lineOf(path: JsonPath): number;
}

export interface YamlRead {
  readonly documents: YamlDocument[];
  readonly lineCounter: LineCounter;
  /** The bytes its aliases added (charged to limits.max-document-bytes). */
  readonly aliasBytes: number;
}

/** Why the text was not read: one `malformed-record` at `line`. */
export interface YamlFailure {
  readonly line: number;
  readonly message: string;
}

export interface YamlOptions {
  /** What the file is, in messages: `cassette`, `the YAML document`. */
  readonly what: string;
  /** yaml's custom tags (a cassette's `!!binary`). */
  readonly customTags?: Array<'binary'>;
  /** A stream of several documents (each a record: capped by limits.max-record-keys), or the first document only. */
  readonly stream: boolean;
}

/**
 * The one way YAML is read (cassettes, `layout: yaml` mappings), with the bounds of
 * a whole document: the text is at most limits.max-document-bytes (read whole by the
 * caller); aliases are read as copies of what they stand for, so their expansion is
 * measured on the node tree before any copy is made and charged to the same limit (an
 * alias that names a node holding it is refused); each value is at most
 * limits.max-depth deep and, when the file is a stream of records, each record holds
 * at most limits.max-record-keys keys.
 */
export async function readYaml(text: string, limits: ReadLimits, options: YamlOptions): Promise<YamlRead | YamlFailure> {
  // yaml is loaded when YAML is read only (eager: kept in the bundle, evaluated here; see scripts/build.mjs).
  const yaml = await import(/* webpackMode: "eager" */ 'yaml');
  const kinds = yaml as unknown as YamlKinds;
  const lineCounter = new yaml.LineCounter();
  const parsed = yaml.parseAllDocuments(text, { lineCounter, uniqueKeys: false, customTags: options.customTags ?? [] });
  const all = Array.isArray(parsed) ? parsed : [];
  const docs = options.stream ? all : all.slice(0, 1);
  const what = options.what;
  if (!options.stream && all.length > 1) return { line: lineAt(all[1]!, lineCounter), message: `${what} is not valid YAML: MULTIPLE_DOCS` };
  for (const doc of docs) {
    if (doc.errors.length > 0) return { line: doc.errors[0]!.linePos?.[0]?.line ?? 1, message: `${what} is not valid YAML: ${doc.errors[0]!.code}` };
  }
  let aliasBytes = 0;
  for (const doc of docs) {
    const expansion = aliasExpansion(doc.contents, doc.contents, kinds);
    if (expansion.kind === 'cycle') return { line: lineAt(doc, lineCounter), message: `${what} not read: an alias names a node that holds it, so it expands without end` };
    aliasBytes += expansion.bytes;
    if (aliasBytes > limits.maxDocumentBytes) return { line: 1, message: `${what} not read: its aliases expand it by ${aliasBytes} bytes, past the ${limitText('maxDocumentBytes', limits.maxDocumentBytes)}` };
  }
  const documents: YamlDocument[] = [];
  for (const doc of docs) {
    const line = lineAt(doc, lineCounter);
    let value: unknown;
    try {
      // One conversion per document: the yaml package resolves the aliases of one conversion in one pass.
      value = doc.toJS({ maxAliasCount: -1 }) as unknown;
    } catch (error) {
      return { line, message: `${what} cannot be read (${error instanceof Error ? error.message.split('\n')[0] : 'unknown error'})` };
    }
    const problem = shapeProblem(value, limits.maxDepth, docs.length > 1 ? limits.maxRecordKeys : Number.POSITIVE_INFINITY);
    if (problem instanceof JsonLineError) return { line, message: `${what} not read: ${problem.reason}` };
    documents.push({ value, doc, line, lineOf: (path) => nodeLine(doc, path, lineCounter, line) });
  }
  return { documents, lineCounter, aliasBytes };
}

function lineAt(doc: Document.Parsed, lineCounter: LineCounter): number {
  const start = doc.contents?.range?.[0] ?? doc.range[0];
  return lineCounter.linePos(start).line;
}

/** The line of the node at `path`, or of the nearest node above it that has a place. */
function nodeLine(doc: Document.Parsed, path: JsonPath, lineCounter: LineCounter, fallback: number): number {
  for (let end = path.length; end >= 0; end -= 1) {
    const node = end === 0 ? doc.contents : (doc.getIn(path.slice(0, end), true) as { range?: [number, number, number] } | undefined);
    const start = node?.range?.[0];
    if (start !== undefined) return lineCounter.linePos(start).line;
  }
  return fallback;
}
