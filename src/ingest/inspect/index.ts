import { isObject, own, type JsonObject } from '../facts/fields.js';
import { indexLines } from '../read/json-locate.js';
import { FactCollector } from '../facts/tool-facts.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { readWhole } from '../read/read-whole.js';
import { headBytes, largeDocumentHead, streamDocument } from '../read/whole-document.js';
import { looksLikeEvalZip, readEvalArchive } from './eval-zip.js';
import { collectSample, sampleRunId } from './samples.js';
import type { RecordSink } from '../types.js';

function isEvalLog(doc: unknown): doc is JsonObject {
  return isObject(doc) && isObject(own(doc, 'eval')) && typeof own(doc, 'version') === 'number' && (Array.isArray(own(doc, 'samples')) || own(doc, 'plan') !== undefined);
}

/**
 * Inspect AI eval logs: the `.json` log (`{version, eval, samples[]}`) and the
 * `.eval` zip (header.json + samples/*.json). One run per sample and epoch.
 * Lines: in a `.json` log, the line where each message begins. A `.eval`
 * archive's entries are minified JSON without lines: a record there is placed
 * at `<archive>/<entry>:<line>`, the entry (which names the sample and epoch,
 * `samples/<id>_epoch_<n>.json`) and the line where its message begins in the
 * entry printed with two-space indents (`unzip -p <archive> <entry> | jq .`).
 */
export const inspectFormat: TraceFormat = {
  id: 'inspect',
  description: 'Inspect AI eval logs (.json and .eval zip archives)',
  detect(sample: DetectSample): number {
    const head = largeDocumentHead(sample);
    if (head !== null) return /^\{\s*"version"\s*:\s*\d+\s*,/.test(head) && /"eval"\s*:\s*\{/.test(head) ? Evidence.signature : Evidence.none;
    return looksLikeEvalZip(sample.head) || isEvalLog(sample.document) ? Evidence.signature : Evidence.none;
  },
  async parse(input, sink) {
    const collector = new FactCollector(false);
    // Each sample's records are handed on once it is read (a sample is a run), so the
    // records of a log are not all held until its end.
    const handOn = () => {
      for (const record of collector.records) sink.record(record);
      collector.records.length = 0;
    };
    if (looksLikeEvalZip(await headBytes(input, 64 * 1024))) {
      // A zip is read whole (its directory is at its end), within max-document-bytes, else one finding naming it.
      const bytes = await readWhole(input, sink, 'an .eval archive');
      if (bytes === null) return;
      const archive = await readEvalArchive(bytes, input.limits.maxDocumentBytes);
      for (const problem of archive.problems) sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: problem });
      const task = taskOf(archive.header);
      for (const { name, value } of archive.samples) {
        if (isObject(value)) sampleScenario(sink, task, value, name);
        if (isObject(value)) collectSample(collector, value, [], `${input.file}/${name}`, indexLines(JSON.stringify(value, null, 2), 3), name);
        handOn();
      }
    } else {
      // A .json log is streamed one sample at a time (a sample is read whole: its events time its messages).
      const read = await streamDocument(input, sink, { lists: ['$.samples[*]'] }, ({ value, index, lineOf }) => {
        if (isObject(value)) sampleScenario(sink, null, value, `#${index}`);
        if (isObject(value)) collectSample(collector, value, [], input.file, lineOf, `#${index}`);
        handOn();
      });
      if (!read) return;
    }
  },
};


/** `eval.task` of a log's header: the task its samples belong to. */
function taskOf(header: unknown): string | null {
  const evalSpec = isObject(header) ? own(header, 'eval') : undefined;
  const task = isObject(evalSpec) ? own(evalSpec, 'task') : undefined;
  return typeof task === 'string' ? task : null;
}

/** A sample's scenario: its task, id and epoch (its `uuid` is new on every run), and its input. */
function sampleScenario(sink: RecordSink, task: string | null, sample: JsonObject, fallbackRunId: string): void {
  const runId = sampleRunId(sample) ?? fallbackRunId;
  const input = own(sample, 'input');
  const text = typeof input === 'string' ? input : input === undefined ? undefined : JSON.stringify(input);
  sink.scenario?.({ runId, ...(sampleRunId(sample) === null ? {} : { name: `${task ?? ''}/${runId}` }), ...(text === undefined ? {} : { input: text }) });
}
