import { ConfigurationError } from '../errors.js';
import { readConfinedFile, type Confinement } from '../io/confine.js';

/** Largest configuration file read (checked before a byte is read). */
export const CONFIG_MAX_BYTES = 256 * 1024;
/**
 * Most keys and list items a configuration file may write (counted on its text before
 * the YAML parser runs, an upper bound: every `key:`, `- item`, `? key` and flow `,`).
 * The YAML parser costs microseconds per node; this keeps a hostile file under a second.
 */
export const CONFIG_MAX_ENTRIES = 2_000;

/**
 * Reads a configuration file under the workspace rule (src/io/confine.ts) with its
 * size checked first: a symlink out of the workspace, a device or FIFO, or a file
 * over CONFIG_MAX_BYTES is refused at once and nothing of it is read or echoed.
 */
export function readConfigText(path: string, shown: string, within: Confinement): string {
  const read = readConfinedFile(path, within, CONFIG_MAX_BYTES);
  if (read.kind === 'refused' && read.missing) throw new ConfigurationError(`no such configuration file: ${JSON.stringify(shown)}`, 'no-such-path');
  if (read.kind === 'refused') {
    const reason = read.refused.startsWith('refused: ') ? read.refused.slice('refused: '.length) : read.refused;
    const cap = /larger than the limit/.test(reason) ? ` (configuration files are capped at ${CONFIG_MAX_BYTES} bytes)` : '';
    throw new ConfigurationError(`cannot read configuration file ${JSON.stringify(shown)}: ${reason}${cap}`);
  }
  if (read.kind === 'error') {
    const code = (read.error as NodeJS.ErrnoException).code;
    throw new ConfigurationError(`cannot read configuration file ${JSON.stringify(shown)}${code ? ` (${code})` : ''}`);
  }
  return read.bytes.toString('utf8');
}

/**
 * Parses the YAML (or JSON) of a configuration file, its cost bounded: the entries are
 * counted on the text first (CONFIG_MAX_ENTRIES), then the document is parsed without
 * the YAML package's duplicate-key check (quadratic in the keys of one mapping) and
 * checked for duplicate keys here with one set per mapping.
 */
export async function parseConfigText(text: string, shown: string): Promise<unknown> {
  const entries = countEntries(text);
  if (entries > CONFIG_MAX_ENTRIES) {
    throw new ConfigurationError(`${shown}: more than ${CONFIG_MAX_ENTRIES} keys and list items (${entries}); a configuration file is capped at ${CONFIG_MAX_ENTRIES}`);
  }
  // yaml is loaded for a configuration file only (eager: kept in the bundle, evaluated here; see scripts/build.mjs).
  const { isMap, isScalar, parseDocument, visit } = await import(/* webpackMode: "eager" */ 'yaml');
  const doc = parseDocument(text, { uniqueKeys: false });
  const first = doc.errors[0];
  if (first) throw new ConfigurationError(`${shown}: not valid YAML ${yamlWhere(text, first.pos[0])}: ${first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:$/, '')}`);
  let duplicate: string | null = null;
  visit(doc, {
    Map(_, map) {
      if (!isMap(map)) return undefined;
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? `s:${String(pair.key.value)}` : `n:${String(pair.key)}`;
        if (seen.has(key)) {
          duplicate = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
          return visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  if (duplicate !== null) throw new ConfigurationError(`${shown}: not valid YAML: Map keys must be unique (${JSON.stringify(duplicate)} is repeated)`);
  try {
    return doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : 'invalid YAML';
    throw new ConfigurationError(`${shown}: not valid YAML: ${message}`);
  }
}

/**
 * Where a YAML error is, on one line: `at line 4, column 6 ("  a: b: c")`, the line quoted
 * as JSON (a tab shows as \t) and the column counted in its characters from 1; past the
 * last line: `at the end of the file (after line 2: "  retry-storm: [")`.
 */
function yamlWhere(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const start = before.lastIndexOf('\n') + 1;
  const end = text.indexOf('\n', start);
  const shown = (lineText: string) => JSON.stringify(lineText.replace(/\r$/, '').slice(0, 120));
  if (text.slice(start).trim() === '') {
    const lines = text.slice(0, start).replace(/\s+$/, '').split('\n');
    return lines.length === 1 && lines[0] === '' ? 'at the end of the file' : `at the end of the file (after line ${lines.length}: ${shown(lines.at(-1)!)})`;
  }
  return `at line ${line}, column ${offset - start + 1} (${shown(text.slice(start, end < 0 ? undefined : end))})`;
}

/**
 * An upper bound on the keys, list items and collections a YAML text writes: every `:`
 * (a key; also a colon inside a value, which only over-counts), every `,` (a flow item),
 * every `[` and `{` (a flow collection), and every `-` or `?` at a line's indentation
 * followed by white space (a list item, an explicit key). One pass, no allocation.
 */
export function countEntries(text: string): number {
  let count = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      lineStart = true;
      continue;
    }
    const next = text.charCodeAt(i + 1);
    const spaceAfter = Number.isNaN(next) || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d;
    if (c === 0x3a || c === 0x2c || c === 0x5b || c === 0x7b) count += 1;
    else if ((c === 0x2d || c === 0x3f) && lineStart && spaceAfter) count += 1;
    if (c !== 0x20 && c !== 0x09 && !((c === 0x2d || c === 0x3f) && spaceAfter)) lineStart = false;
  }
  return count;
}
