import { indexLines } from '../read/json-locate.js';
import { forEachJsonLine } from '../read/json-lines.js';
import { Evidence, type DetectSample, type ParseInput, type RecordSink, type TraceFormat } from '../types.js';
import { parseDocument } from '../read/whole-document.js';
import { readWhole } from '../read/read-whole.js';
import { readYaml } from '../read/yaml-document.js';
import type { CustomFormatSpec } from './mapping.js';
import { compileCondition, compileMapping, type CompiledCondition, type CompiledMapping } from './compile.js';
import { MappingTally, mappingMisses } from './mapping-check.js';
import { emitRecord, type MappedRecord } from './emit-record.js';
import { holds } from './read-item.js';
import { RecordQueries } from './walk.js';
import { yamlHeadValues } from './yaml-sample.js';

/**
 * A format from the configuration file's `formats:` section (docs/formats/custom.md).
 * Detection is the mapping's own `detect` condition and nothing else: a mapping
 * without one, or whose condition does not hold for the file's start, never claims
 * the file (it is read only when named with --input-format). When it holds, the
 * user's word outranks any built-in evidence (Evidence.configured).
 */
export function customFormat(spec: CustomFormatSpec): TraceFormat {
  const mapping = compileMapping(spec);
  const detect = spec.detect === undefined ? null : compileCondition(spec.detect);
  return {
    id: spec.name,
    description: spec.description ?? `configured format '${spec.name}' (formats.${spec.name})`,
    detect: (sample) => (detect !== null && claims(spec.layout, detect, sample) ? Evidence.configured : Evidence.none),
    parse: async (input, sink) => {
      await parseMapped(spec, mapping, input, sink);
    },
  };
}

/** Reads a file with a mapping, then says what the mapping missed (a `partial-read` naming the key). */
export async function parseMapped(spec: CustomFormatSpec, mapping: CompiledMapping, input: ParseInput, sink: RecordSink): Promise<MappingTally> {
  const tally = new MappingTally();
  const at = { name: spec.name, mapping, tally, sink, file: input.file };
  if (spec.layout === 'jsonl') await parseLines(at, input, yamlHint(sink));
  else if (spec.layout === 'document') await parseWhole(at, input, yamlHint(sink));
  else await parseYaml(at, input);
  for (const miss of mappingMisses(mapping, tally)) {
    sink.diagnostic({ ruleId: 'partial-read', line: 0, message: `the mapping formats.${spec.name} missed part of the file: ${miss}` });
  }
  return tally;
}

function claims(layout: CustomFormatSpec['layout'], detect: CompiledCondition, sample: DetectSample): boolean {
  const holdsOn = (value: unknown) => {
    const queries = new RecordQueries(value, DETECT_LIMIT);
    return holds(detect, queries.top, queries);
  };
  try {
    if (layout === 'document') return sample.document !== undefined && holdsOn(sample.document);
    if (layout === 'yaml') return yamlHeadValues(sample.head).some(holdsOn);
    return sample.jsonLines.some(holdsOn);
  } catch {
    return false;
  }
}

/** JSON text a detect condition may parse: within the sample (1 MiB). */
const DETECT_LIMIT = { key: 'maxLineBytes', bytes: 1024 * 1024, maxDepth: 256, maxKeys: 10_000 } as const;

type Reading = Omit<MappedRecord, 'queries' | 'line' | 'lineOf'>;

/** Each line is one record. */
async function parseLines(at: Reading, input: ParseInput, sink: RecordSink): Promise<void> {
  const { maxLineBytes, maxDepth, maxRecordKeys } = input.limits;
  const limit = { key: 'maxLineBytes', bytes: maxLineBytes, maxDepth, maxKeys: maxRecordKeys } as const;
  await forEachJsonLine(input, sink, (value, line) => {
    emitRecord({ ...at, sink, queries: new RecordQueries(value, limit), line, lineOf: null });
  });
}

/** The file is one JSON document (read whole, capped by limits.max-document-bytes), the one record. */
async function parseWhole(at: Reading, input: ParseInput, sink: RecordSink): Promise<void> {
  const document = await parseDocument(input, sink);
  if (document === null) return;
  const { maxDocumentBytes, maxDepth, maxRecordKeys } = input.limits;
  const queries = new RecordQueries(document.value, { key: 'maxDocumentBytes', bytes: maxDocumentBytes, maxDepth, maxKeys: maxRecordKeys });
  emitRecord({ ...at, sink, queries, line: 1, lineOf: indexLines(document.text, maxDepth, 0) });
}

/** Each YAML document of the file is one record (read whole, with the bounds of src/ingest/read/yaml-document.ts). */
async function parseYaml(at: Reading, input: ParseInput): Promise<void> {
  const bytes = await readWhole(input, at.sink, 'the YAML file');
  if (bytes === null) return;
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const read = await readYaml(text, input.limits, { what: 'the YAML file', stream: true });
  if (!('documents' in read)) {
    at.sink.diagnostic({ ruleId: 'malformed-record', line: read.line, message: read.message });
    return;
  }
  const { maxDocumentBytes, maxDepth, maxRecordKeys } = input.limits;
  for (const document of read.documents) {
    const queries = new RecordQueries(document.value, { key: 'maxDocumentBytes', bytes: maxDocumentBytes, maxDepth, maxKeys: maxRecordKeys });
    emitRecord({ ...at, queries, line: document.line, lineOf: (path) => document.lineOf(path) });
  }
}

/** A YAML file read under a JSON layout: its first "not JSON" finding says that mappings read YAML with `layout: yaml`. */
function yamlHint(sink: RecordSink): RecordSink {
  let told = false;
  return {
    record: (r) => sink.record(r),
    skip: (s) => sink.skip(s),
    ...(sink.endRun ? { endRun: (run: string | null) => sink.endRun!(run) } : {}),
    diagnostic: (d) => {
      if (!told && d.ruleId === 'malformed-record' && /^not (one )?JSON/.test(d.message)) {
        told = true;
        sink.diagnostic({ ...d, message: `${d.message} (if the file is YAML, a mapping reads it with layout: yaml)` });
      } else sink.diagnostic(d);
    },
  };
}
