import { isObject, own, type JsonObject } from '../fields.js';
import { indexLines } from '../json-locate.js';
import { FactCollector } from '../tool-facts.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { largeDocumentHead, parseDocument } from '../whole-document.js';
import { looksLikeEvalZip, readEvalArchive } from './eval-zip.js';
import { collectSample } from './samples.js';

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
    const bytes = await input.bytes();
    if (looksLikeEvalZip(bytes)) {
      const archive = readEvalArchive(bytes, input.limits.maxDocumentBytes);
      for (const problem of archive.problems) sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: problem });
      for (const { name, value } of archive.samples) {
        if (isObject(value)) collectSample(collector, value, [], `${input.file}/${name}`, indexLines(JSON.stringify(value, null, 2), 3), name);
      }
    } else {
      const parsed = await parseDocument(input, sink);
      if (!parsed) return;
      const samples = isObject(parsed.value) ? own(parsed.value, 'samples') : undefined;
      if (Array.isArray(samples)) {
        const lineOf = indexLines(parsed.text, 5);
        samples.forEach((sample, i) => {
          if (isObject(sample)) collectSample(collector, sample, ['samples', i], input.file, lineOf, `#${i}`);
        });
      }
    }
    for (const record of collector.records) sink.record(record);
  },
};
