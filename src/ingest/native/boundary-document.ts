import { isObject, type JsonObject } from '../facts/fields.js';
import { Evidence, type DetectSample, type RecordSink, type TraceFormat } from '../types.js';
import { streamDocument } from '../read/whole-document.js';
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
 * malformed-record), at the line where its object begins. A list is read
 * one record at a time; an item that is not a boundary record is a
 * malformed-record at its line.
 */
export const boundaryDocumentFormat: TraceFormat = {
  id: 'boundary-json',
  description: 'Boundary-hash records as one JSON document (an object, or a list of them)',
  detect(sample: DetectSample): number {
    return boundaryRecords(sample.document) !== null ? Evidence.signature : Evidence.none;
  },
  async parse(input, sink) {
    // A list is streamed, one record at a time; a lone object is the rest of the document.
    let items = 0;
    const read = await streamDocument(input, sink, { lists: ['$[*]'] }, ({ value, line, index }) => {
      items += 1;
      if (isObject(value) && hasBoundaryFields(value)) readRecord(value, line, input.file, sink);
      else sink.diagnostic({ ruleId: 'malformed-record', line, message: `list item ${index} is not a boundary record` });
    });
    if (!read) return;
    if (isObject(read.rest) && hasBoundaryFields(read.rest)) readRecord(read.rest, read.lineOf([]), input.file, sink);
    else if (!Array.isArray(read.rest) || items === 0) sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'document is neither a boundary record nor a list of them' });
  },
};

function readRecord(obj: JsonObject, line: number, file: string, sink: RecordSink): void {
  const loc = { file, line };
  const { record, problem } = parseBoundary(obj, loc);
  if (problem !== null) sink.diagnostic({ ruleId: 'malformed-record', line, message: problem });
  if (record !== null) sink.record(record);
  const receipts = embeddedReceipts(obj, loc);
  if (typeof receipts === 'string') sink.diagnostic({ ruleId: 'malformed-record', line, message: receipts });
  else for (const receipt of receipts) sink.record(receipt);
}
