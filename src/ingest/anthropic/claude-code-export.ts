import { isObject, own } from '../facts/fields.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { largeDocumentHead, streamDocument } from '../read/whole-document.js';
import { claudeCodeLineReader } from './claude-code.js';

const LOGLINES_HEAD = /^\{\s*"loglines"\s*:\s*\[/;

/** `{"loglines": [{type, timestamp, message}, …]}`: the signature is the `loglines` list of typed records with a message. */
export function isClaudeCodeExport(sample: DetectSample): boolean {
  const head = largeDocumentHead(sample);
  if (head !== null) return LOGLINES_HEAD.test(head);
  const doc = sample.document;
  if (!isObject(doc)) return false;
  const lines = own(doc, 'loglines');
  if (!Array.isArray(lines)) return false;
  return lines.length === 0 || lines.slice(0, 8).some((entry) => isObject(entry) && typeof own(entry, 'type') === 'string' && own(entry, 'message') !== undefined);
}

/**
 * Claude Code session exports as one JSON document (what claude.ai's Claude Code
 * sessions API returns and `claude-code-transcripts` reads): each entry of
 * `loglines` is read exactly as a line of a JSONL transcript, by the same reader,
 * and placed on the line where the entry begins.
 */
export const claudeCodeExportFormat: TraceFormat = {
  id: 'claude-code-export',
  description: 'Claude Code JSON session exports ({"loglines": [...]})',
  detect: (sample) => (isClaudeCodeExport(sample) ? Evidence.signature : Evidence.none),
  async parse(input, sink) {
    const read = claudeCodeLineReader(input.file, sink);
    // Only objects and lists are placed on their own line; anything else is reported at the list.
    const done = await streamDocument(input, sink, { lists: ['$.loglines[*]'] }, ({ value: entry, line, listLine }) => {
      read(entry, entry !== null && typeof entry === 'object' ? line : listLine);
    });
    if (done && !(isObject(done.rest) && Array.isArray(own(done.rest, 'loglines')))) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'the document has no "loglines" list' });
    }
  },
};
