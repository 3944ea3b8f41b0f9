import { FORMATS } from './registry.js';
import type { DetectSample, TraceFormat } from './types.js';

const JSON_LINES_NAME = /\.(jsonl|ndjson)(\.gz)?$/i;

/** The format that reads a file, or why none does. */
export type FormatChoice =
  | { readonly format: TraceFormat; readonly note: string | null }
  | { readonly format: null; readonly message: string };

/**
 * Picks the format with the strongest evidence (TraceFormat.detect). A tie at the
 * top is read by the first in registry order, with a note naming the others. A
 * file that no format claims gets one message: what it looks like and the
 * closest format with what did not fit (TraceFormat.misfit), so a JSONL file of
 * unrelated records is one verdict, not an error per line.
 */
export function chooseFormat(sample: DetectSample, forced?: string, formats: readonly TraceFormat[] = FORMATS): FormatChoice {
  if (forced) {
    const format = formats.find((f) => f.id === forced);
    return format ? { format, note: null } : { format: null, message: `no format with id '${forced}'` };
  }
  let best = 0;
  let winners: TraceFormat[] = [];
  for (const format of formats) {
    const strength = format.detect(sample);
    if (!(strength > 0)) continue;
    if (strength > best) {
      best = strength;
      winners = [format];
    } else if (strength === best) winners.push(format);
  }
  // An empty JSON-lines file is a valid log of no records (a run that wrote nothing): read, not a verdict.
  if (winners.length === 0 && JSON_LINES_NAME.test(sample.file) && sample.head.toString('utf8').trim() === '') {
    const native = formats.find((f) => f.id === 'native-jsonl');
    if (native) return { format: native, note: null };
  }
  const [first, ...others] = winners;
  if (first) {
    const note = others.length === 0
      ? null
      : `fits ${[first, ...others].map((f) => `'${f.id}'`).join(' and ')} equally well; read as '${first.id}' (force another with --input-format)`;
    return { format: first, note };
  }
  return { format: null, message: unknownMessage(sample, formats) };
}

function unknownMessage(sample: DetectSample, formats: readonly TraceFormat[]): string {
  let closest: { id: string; closeness: number; reason: string } | null = null;
  // The near misses are of JSON formats, judged on the lines that parse as JSON: for a YAML file those are
  // lines of a body written inside it, so none is named.
  const yaml = yamlTopKeys(sample.head.subarray(0, 4096).toString('utf8')) !== null && sample.document === undefined;
  for (const format of yaml ? [] : formats) {
    const miss = format.misfit?.(sample) ?? null;
    if (miss && miss.closeness > 0 && (closest === null || miss.closeness > closest.closeness)) closest = { id: format.id, ...miss };
  }
  const shape = describeShape(sample);
  return closest === null
    ? `fits no supported trace format (${shape})`
    : `fits no supported trace format (${shape}); closest is '${closest.id}', but ${closest.reason}`;
}

/** What the start of a file looks like, in words. */
export function describeShape(sample: DetectSample): string {
  const head = sample.head;
  if (head.length === 0) return 'the file is empty';
  if (head[0] === 0x50 && head[1] === 0x4b) return 'a zip archive';
  const doc = sample.document;
  if (doc !== undefined && doc !== null && typeof doc === 'object' && !Array.isArray(doc)) return `a JSON object with keys ${keyList(doc)}`;
  if (Array.isArray(doc)) return 'a JSON array of unknown records';
  // YAML (a cassette of an API no reader knows, a configuration file): its own top-level keys, never the
  // keys of a JSON body written inside it as a block scalar.
  const yaml = yamlTopKeys(head.subarray(0, 4096).toString('utf8'));
  if (yaml !== null) return yaml.length === 0 ? 'YAML with no top-level keys' : `YAML with top-level keys ${yaml.slice(0, 6).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k)).join(', ')}`;
  const first = sample.jsonLines[0];
  if (sample.jsonLines.length > 1 && first !== null && typeof first === 'object' && !Array.isArray(first)) {
    return `JSON lines whose first record has keys ${keyList(first)}`;
  }
  const text = head.subarray(0, 4096).toString('utf8').trimStart();
  if (text.startsWith('{')) return 'text starting with "{" that is not one JSON document';
  if (text.startsWith('[')) return 'text starting with "[" that is not one JSON document';
  return `${head.length} bytes that are not JSON`;
}

/** The top-level keys of a text that reads as a YAML mapping (a `---` start or a `key:` first line), else null. */
function yamlTopKeys(text: string): string[] | null {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim() !== '' && !line.startsWith('#'));
  if (start < 0) return null;
  const key = /^([A-Za-z_][\w.-]*):(?:[ \t]|$)/;
  if (lines[start] !== '---' && !lines[start]!.startsWith('--- ') && !key.test(lines[start]!)) return null;
  const keys = lines.slice(start).map((line) => key.exec(line)?.[1]).filter((k): k is string => k !== undefined);
  return [...new Set(keys)];
}

function keyList(value: object): string {
  const keys = Object.keys(value);
  return keys.slice(0, 6).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k)).join(', ');
}
