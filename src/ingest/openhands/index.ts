import { excerpt, forEachJsonLine } from '../read/json-lines.js';
import { eachLine, Evidence, type DetectSample, type ParseInput, type TraceFormat } from '../types.js';
import { largeDocumentHead, streamDocument } from '../read/whole-document.js';
import { isOpenHandsEvent, OpenHandsStream } from './events.js';

export function isOpenHandsStream(sample: DetectSample): boolean {
  const head = largeDocumentHead(sample);
  if (head !== null) return head.startsWith('[') && /"source"\s*:\s*"(agent|user|environment)"/.test(head) && /"(action|observation)"\s*:\s*"/.test(head);
  const doc = sample.document;
  if (Array.isArray(doc)) return doc.slice(0, 8).some(isOpenHandsEvent);
  return sample.jsonLines.some(isOpenHandsEvent);
}

/**
 * OpenHands event streams: a JSON list of action / observation events (a saved
 * trajectory, `tests/runtime/trajs/*.json`) or one event per line. The file is
 * one run (events carry no session id). See events.ts for how events become records.
 */
export const openHandsFormat: TraceFormat = {
  id: 'openhands',
  description: 'OpenHands event streams (action / observation events, JSON list or JSONL)',
  detect: (sample) => (isOpenHandsStream(sample) ? Evidence.signature : Evidence.none),
  async parse(input, sink) {
    const stream = new OpenHandsStream(input.file, sink, null);
    if (await isList(input)) {
      const read = await streamDocument(input, sink, { lists: ['$[*]'] }, ({ value: event, line, index: i }) => {
        if (isOpenHandsEvent(event)) stream.event(event, line);
        else sink.diagnostic({ ruleId: 'malformed-record', line, message: `list item ${i} is not an action or observation event: "${excerpt(JSON.stringify(event) ?? '')}"` });
      });
      if (read && !Array.isArray(read.rest)) {
        sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'the document is not a list of events' });
        return;
      }
    } else {
      await forEachJsonLine(input, sink, (value, line) => {
        if (isOpenHandsEvent(value)) stream.event(value, line);
        else sink.diagnostic({ ruleId: 'malformed-record', line, message: `line is not an action or observation event: "${excerpt(JSON.stringify(value))}"` });
      });
    }
    sink.endRun?.(null);
  },
};

/** Does the file start with `[` (a list of events) rather than one event per line? */
async function isList(input: ParseInput): Promise<boolean> {
  for await (const event of eachLine(input)) {
    if (event.type === 'bad-line') return false;
    const text = event.text.replace(/^\uFEFF/, '').trimStart();
    if (text !== '') return text.startsWith('[');
  }
  return false;
}
