import { idOf, isObject, own } from '../facts/fields.js';
import { forEachJsonLine } from '../read/json-lines.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { dialectOf, whyNoDialect } from './dialect.js';
import { parseNativeRecord } from './parse-record.js';

/** The JSONL dialects agent harnesses write by hand: span logs, typed events, boundary records, redaction receipts, replay transcripts. */
export const nativeFormat: TraceFormat = {
  id: 'native-jsonl',
  description: 'JSONL span logs, typed events, boundary-hash records, redaction receipts and replay transcripts',
  // Replay records carry no run id and count their index across lines: the router
  // sees a replay record on a thread other than the one of the '' run and gives up.
  runKey: 'run_id',
  detect(sample: DetectSample): number {
    // The dialects' field names (kind, type, index) are common words: structure, not a signature.
    return sample.jsonLines.some((value) => isObject(value) && dialectOf(value) !== null) ? Evidence.structure : Evidence.none;
  },
  misfit(sample: DetectSample) {
    // JSON lines only: a one-line document is no claim to be a log.
    const first = sample.jsonLines.length > 1 ? sample.jsonLines.find(isObject) : undefined;
    return first === undefined ? null : { closeness: 1, reason: `its first record fits no native dialect (${whyNoDialect(first)})` };
  },
  async parse(input, sink) {
    const replay = { nextIndex: 0 };
    await forEachJsonLine(input, sink, (value, line, text) => {
      if (!isObject(value)) {
        sink.diagnostic({ ruleId: 'malformed-record', line, message: `record is ${Array.isArray(value) ? 'a JSON array' : `a JSON ${value === null ? 'null' : typeof value}`}, not an object` });
        return;
      }
      // A run's scenario (docs/formats/native.md): what names it across reruns, on any of its records.
      const name = own(value, 'run_name') ?? own(value, 'scenario');
      if (typeof name === 'string' && name !== '') sink.scenario?.({ runId: idOf(value, 'run_id'), name });
      parseNativeRecord(value, { file: input.file, line }, text, sink, replay);
    });
  },
};
