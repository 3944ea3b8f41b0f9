import { isObject, own, str } from '../facts/fields.js';
import { indexLines } from '../read/json-locate.js';
import { collectConversation, conversationsOf, type Conversation } from '../openai/conversations.js';
import { streamList } from '../openai/stream-document.js';
import { FactCollector } from '../facts/tool-facts.js';
import { parseCassette } from '../cassette/index.js';
import { cassetteProvider, looksLikeCassette } from '../cassette/signature.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { readWhole } from '../read/read-whole.js';
import { headBytes, largeDocumentHead, parseDocument } from '../read/whole-document.js';

const NO_CONVERSATION = 'no Messages conversation in this document';

const BLOCKS = new Set(['tool_use', 'tool_result', 'server_tool_use']);

/** A Messages API response (one assistant message) is a conversation of one message. */
function conversations(doc: unknown): Conversation[] | null {
  if (isObject(doc) && str(doc, 'type') === 'message' && Array.isArray(own(doc, 'content'))) {
    return [{ runId: null, path: [], listPath: [], messages: [doc], tools: undefined }];
  }
  return conversationsOf(doc);
}

/** Anthropic evidence: a tool_use/tool_result content block, or tools declared with `input_schema`. */
function anthropicShaped(convs: readonly Conversation[]): boolean {
  for (const conv of convs) {
    if (Array.isArray(conv.tools) && conv.tools.some((t) => isObject(t) && own(t, 'input_schema') !== undefined)) return true;
    for (const message of conv.messages) {
      const content = isObject(message) ? own(message, 'content') : undefined;
      if (Array.isArray(content) && content.some((b) => isObject(b) && BLOCKS.has(str(b, 'type') ?? ''))) return true;
    }
  }
  return false;
}

/**
 * Anthropic Messages conversations: a message list, a request
 * `{system, messages, tools}` (tools with `input_schema` are the catalog), a
 * response message, or a list of conversations (one run each). `tool_use`
 * blocks are calls; `tool_result` blocks results (`is_error`). VCR cassettes of
 * the Messages API (api.anthropic.com, or Bedrock's anthropic models) too.
 */
export const anthropicMessagesFormat: TraceFormat = {
  id: 'anthropic-messages',
  description: 'Anthropic Messages API conversations (tool_use / tool_result blocks) and their VCR cassettes',
  detect(sample: DetectSample): number {
    if (looksLikeCassette(sample.head)) return cassetteProvider(sample.head) === 'anthropic' ? Evidence.signature : Evidence.none;
    // tool_use / tool_result blocks and `input_schema` tools are Anthropic's own: stronger than a generic message list.
    const head = largeDocumentHead(sample);
    if (head !== null) return /"(messages|traj)"\s*:\s*\[/.test(head) && /"type"\s*:\s*"tool_(use|result)"|"input_schema"\s*:/.test(head) ? Evidence.signature : Evidence.none;
    const convs = sample.document === undefined ? null : conversations(sample.document);
    return convs !== null && anthropicShaped(convs) ? Evidence.signature : Evidence.none;
  },
  async parse(input, sink) {
    if (looksLikeCassette(await headBytes(input, 4096))) {
      // YAML is parsed whole: within max-document-bytes, else one finding naming it.
      const bytes = await readWhole(input, sink, 'a cassette');
      if (bytes !== null) await parseCassette(bytes.toString('utf8'), input.file, sink, input.limits);
      return;
    }
    // A list (of messages, or of conversations: one run each) is streamed one item at a time.
    if ((input.head?.subarray(0, 64 * 1024).toString('utf8').trimStart() ?? '').startsWith('[')) {
      await streamList(input, sink, NO_CONVERSATION);
      return;
    }
    const parsed = await parseDocument(input, sink);
    if (!parsed) return;
    const convs = conversations(parsed.value);
    if (!convs) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: NO_CONVERSATION });
      return;
    }
    const collector = new FactCollector(false);
    const lineOf = indexLines(parsed.text, 4);
    for (const conv of convs) collectConversation(collector, conv, input.file, lineOf);
    for (const record of collector.records) sink.record(record);
  },
};
