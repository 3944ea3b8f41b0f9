import { isObject, type JsonObject } from '../fields.js';
import { indexLines } from '../json-locate.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { parseDocument } from '../whole-document.js';
import { embeddedReceipts, hasBoundaryFields, parseBoundary } from './boundary.js';

/** The boundary records of a document: the object itself, or every item of a list of them. */
function boundaryRecords(value: unknown): JsonObject[] | null {
  if (isObject(value)) return hasBoundaryFields(value) ? [value] : null;
  if (!Array.isArray(value) || value.length === 0) return null;
  return value.every((item) => isObject(item) && hasBoundaryFields(item)) ? (value as JsonObject[]) : null;
}

/**
 * Boundary-hash records written as one pretty-printed JSON document (seed 003
 * shows its record that way): one object, or a list of them. Each record is
 * read as the JSONL dialect reads a boundary line (placeholder hashes are a
 * malformed-record), at the line where its object begins.
 */
export const boundaryDocumentFormat: TraceFormat = {
  id: 'boundary-json',
  description: 'Boundary-hash records as one JSON document (an object, or a list of them)',
  detect(sample: DetectSample): number {
    return boundaryRecords(sample.document) !== null ? Evidence.signature : Evidence.none;
  },
  async parse(input, sink) {
    const doc = await parseDocument(input, sink);
    if (doc === null) return;
    const records = boundaryRecords(doc.value);
    if (records === null) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'document is neither a boundary record nor a list of them' });
      return;
    }
    const lineOf = indexLines(doc.text, 2);
    records.forEach((obj, i) => {
      const line = lineOf(Array.isArray(doc.value) ? [i] : []);
      const loc = { file: input.file, line };
      const { record, problem } = parseBoundary(obj, loc);
      if (problem !== null) sink.diagnostic({ ruleId: 'malformed-record', line, message: problem });
      if (record !== null) sink.record(record);
      const receipts = embeddedReceipts(obj, loc);
      if (typeof receipts === 'string') sink.diagnostic({ ruleId: 'malformed-record', line, message: receipts });
      else for (const receipt of receipts) sink.record(receipt);
    });
  },
};
