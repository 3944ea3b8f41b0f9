import { isObject } from '../facts/fields.js';
import { indexLines } from '../read/json-locate.js';
import { forEachJsonLine } from '../read/json-lines.js';
import { FactCollector } from '../facts/tool-facts.js';
import { Evidence, type DetectSample, type ParseInput, type RecordSink, type TraceFormat } from '../types.js';
import { headShowsJsonLines, isJsonLines, peekLines } from '../read/peek-lines.js';
import { largeDocumentHead } from '../read/whole-document.js';
import { parseCassette } from '../cassette/index.js';
import { cassetteProvider, looksLikeCassette } from '../cassette/signature.js';
import { collectConversation, conversationsOf, isConversationObject } from './conversations.js';
import { collectRunState, isRunState } from './run-state.js';
import { streamOpenAiDocument } from './stream-document.js';
import { readWhole } from '../read/read-whole.js';

/**
 * Chat conversations as OpenAI-style APIs and agent harnesses write them:
 * Chat Completions message lists and requests (`tools` = the catalog),
 * trajectory dumps (a list of `{messages|traj}`, one run each), Responses API
 * item lists, OpenAI Agents SDK run states, JSONL with one conversation per
 * line, and VCR cassettes of recorded API calls.
 */
export const openaiFormat: TraceFormat = {
  id: 'openai',
  description: 'OpenAI Chat Completions / Responses conversations, trajectory lists, Agents SDK run states, VCR cassettes',
  detect(sample: DetectSample): number {
    // A cassette and a run state carry their own markers; a message list is a shape other formats share.
    if (looksLikeCassette(sample.head)) return cassetteProvider(sample.head) === 'openai' ? Evidence.signature : Evidence.none;
    const head = largeDocumentHead(sample);
    if (head !== null) {
      if (/^\{\s*"\$schemaVersion"/.test(head)) return Evidence.signature;
      return /"(messages|traj|input)"\s*:\s*\[|^\[\s*\{\s*"(role|type)"/.test(head) && /"role"\s*:\s*"(system|developer|user|assistant|tool)"|"type"\s*:\s*"function_call/.test(head) ? Evidence.structure : Evidence.none;
    }
    if (sample.document !== undefined) return isRunState(sample.document) ? Evidence.signature : conversationsOf(sample.document) !== null ? Evidence.structure : Evidence.none;
    return sample.jsonLines.length > 0 && sample.jsonLines.every(isConversationObject) ? Evidence.structure : Evidence.none;
  },
  async parse(input, sink) {
    // JSON lines are streamed, never read whole: the first lines decide (a document, a
    // cassette or a pretty-printed file starts with a line that is not JSON on its own).
    const fromHead = input.head === undefined ? null : headShowsJsonLines(input.head);
    if (fromHead ?? isJsonLines(await peekLines(input))) {
      await parseLines(input, sink);
      return;
    }
    if (await streamOpenAiDocument(input, sink)) return;
    const bytes = await readWhole(input, sink, 'a conversation object or cassette');
    if (bytes === null) return;
    if (looksLikeCassette(bytes)) {
      await parseCassette(bytes.toString('utf8'), input.file, sink, input.limits);
      return;
    }
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let doc: unknown;
    try {
      doc = JSON.parse(text) as unknown;
    } catch {
      await parseLines(input, sink);
      return;
    }
    const collector = new FactCollector(false);
    const lineOf = indexLines(text, 4);
    if (isRunState(doc)) collectRunState(collector, doc, input.file, lineOf);
    else {
      const conversations = conversationsOf(doc);
      if (!conversations) {
        sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'no message list, trajectory list or run state in this document' });
        return;
      }
      for (const conv of conversations) collectConversation(collector, conv, input.file, lineOf);
    }
    for (const record of collector.records) sink.record(record);
  },
};

/** JSONL with one conversation object per line: one run per line (its id, else `line N`). */
async function parseLines(input: ParseInput, sink: RecordSink): Promise<void> {
  await forEachJsonLine(input, sink, (value, line) => {
    const conversations = conversationsOf(value);
    if (!isObject(value) || !conversations) {
      sink.diagnostic({ ruleId: 'malformed-record', line, message: 'line is not a conversation object (no "messages" list)' });
      return;
    }
    const collector = new FactCollector(false);
    for (const conv of conversations) collectConversation(collector, { ...conv, runId: conv.runId ?? `line ${line}` }, input.file, () => line);
    for (const record of collector.records) sink.record(record);
  });
}
