import { isObject } from '../facts/fields.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { parseDocument } from '../read/whole-document.js';
import { embeddedReceipts } from './boundary.js';

/** How a checkpoint written by `seal` starts (src/seal/checkpoint.ts writes `format` first). */
const CHECKPOINT_HEAD = /^\{\s*"format"\s*:\s*"agent-trace-audit-seal"/;

/**
 * A seal checkpoint (`<sealed file>.seal.json`): its `redactions`, the
 * receipts of the values replaced before sealing (seed 003), are read as the
 * receipts of any trace, so redaction-policy-drift compares the checkpoints of
 * two runs (each checkpoint is a run of its own). Nothing else in it is a record.
 */
export const sealCheckpointFormat: TraceFormat = {
  id: 'seal-checkpoint',
  description: 'The checkpoint of a sealed trace: its redaction receipts',
  detect(sample: DetectSample): number {
    const doc = sample.document;
    if (isObject(doc)) return doc['format'] === 'agent-trace-audit-seal' ? Evidence.signature : Evidence.none;
    return CHECKPOINT_HEAD.test(sample.head.toString('latin1', 0, 200)) ? Evidence.signature : Evidence.none;
  },
  async parse(input, sink) {
    const doc = await parseDocument(input, sink);
    if (doc === null) return;
    if (!isObject(doc.value)) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'a seal checkpoint is a JSON object' });
      return;
    }
    const receipts = embeddedReceipts(doc.value, { file: input.file, line: 1 });
    if (typeof receipts === 'string') sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: receipts });
    else for (const receipt of receipts) sink.record(receipt);
  },
};
