import { idOf, isObject, own, type JsonObject } from '../facts/fields.js';
import { Evidence, type DetectSample, type RecordSink, type TraceFormat } from '../types.js';
import { largeDocumentHead, streamDocument } from '../read/whole-document.js';
import { ExportPlan } from './export-plan.js';
import { ExportReading, type ExportToRead } from './export-reading.js';

function observationsOf(doc: unknown): { list: unknown[]; path: Array<string | number> } | null {
  if (!isObject(doc) || !isObject(own(doc, 'trace'))) return null;
  const top = own(doc, 'observations');
  if (Array.isArray(top)) return { list: top, path: ['observations'] };
  const nested = own(own(doc, 'trace') as JsonObject, 'observations');
  return Array.isArray(nested) ? { list: nested, path: ['trace', 'observations'] } : null;
}

/** One export, or a list of exports (one run per trace). */
function exportsOf(doc: unknown): Array<{ value: JsonObject; path: Array<string | number> }> | null {
  if (observationsOf(doc) !== null) return [{ value: doc as JsonObject, path: [] }];
  if (!Array.isArray(doc) || doc.length === 0 || !doc.every((item) => observationsOf(item) !== null)) return null;
  return doc.map((value, i) => ({ value: value as JsonObject, path: [i] }));
}

/** Langfuse trace exports `{trace, observations[]}`: one run per trace id. */
export const langfuseFormat: TraceFormat = {
  id: 'langfuse',
  description: 'Langfuse trace exports ({trace, observations[]}, observation types GENERATION/TOOL/AGENT/SPAN)',
  detect(sample: DetectSample): number {
    const head = largeDocumentHead(sample);
    if (head !== null) return /^\[?\s*\{\s*"trace"\s*:\s*\{/.test(head) && /"(observations|projectId)"\s*:/.test(head) ? Evidence.signature : Evidence.none;
    return exportsOf(sample.document) !== null ? Evidence.signature : Evidence.none;
  },
  misfit(sample: DetectSample) {
    const doc = Array.isArray(sample.document) ? sample.document[0] : sample.document;
    return isObject(doc) && isObject(own(doc, 'trace')) && !Array.isArray(own(doc, 'observations'))
      ? { closeness: 2, reason: 'it has no "observations" list beside "trace"' }
      : null;
  },
  async parse(input, sink) {
    // Two reads. The first keeps nothing of the observations but a plan per export
    // (export-plan.ts); the second hands each observation's facts on as it comes,
    // holding only an export whose observations are out of start order (or BeeAI's).
    const plans = new Map<string, ExportPlan>();
    const read = await streamDocument(input, sink, { lists: LISTS }, ({ value, path }) => {
      if (!isObject(value)) return;
      const key = listKey(path);
      let plan = plans.get(key);
      if (plan === undefined) plans.set(key, (plan = new ExportPlan()));
      plan.note(value);
    });
    if (!read) return;
    for (const plan of plans.values()) plan.done();
    const exports = exportsOf(read.rest);
    if (!exports) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'not a Langfuse export ({trace, observations[]} or a list of them)' });
      return;
    }
    const toRead: ExportToRead[] = [];
    for (const { value, path } of exports) {
      const key = listKey([...path, ...observationsOf(value)!.path, 0]);
      const plan = plans.get(key);
      if (plan !== undefined) toRead.push({ key, plan, traceId: idOf(own(value, 'trace') as JsonObject, 'id'), index: path.length > 0 ? (path[0] as number) : null });
    }
    if (toRead.length === 0) return;
    const reading = new ExportReading(input.file, sink, toRead);
    // The second read's malformed items were reported by the first.
    await streamDocument(input, QUIET, { lists: LISTS }, ({ value, path, line }) => {
      if (isObject(value)) reading.observation(listKey(path), value, line);
    });
    reading.end();
  },
};

/** The export an observation belongs to: the path of its list. */
const listKey = (path: ReadonlyArray<string | number>): string => path.slice(0, -1).join('\u0000');

const QUIET: RecordSink = { record() {}, diagnostic() {}, skip() {} };

/** Where observations are: beside the trace or inside it, in one export or in each of a list of them. */
const LISTS = ['$.observations[*]', '$.trace.observations[*]', '$[*].observations[*]', '$[*].trace.observations[*]'];
