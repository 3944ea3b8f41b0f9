import { forEachJsonLine } from '../read/json-lines.js';
import { Evidence, type DetectSample, type ParseInput, type TraceFormat } from '../types.js';
import { largeDocumentHead, streamDocument } from '../read/whole-document.js';
import { forEachDesktopMessage, looksLikeDesktopLog } from './desktop-log.js';
import { bareShape, McpMessageLog, rpcOf } from './message-log.js';

const fits = (value: unknown) => rpcOf(value) !== null || bareShape(value) !== null;

/**
 * MCP JSON-RPC message logs (JSONL, a JSON list, or one message), and bare MCP
 * results: `tools/list` results are the catalog (with `inputSchema`),
 * `tools/call` requests are calls paired with their response by JSON-RPC id
 * (an id reused after its response gets a `#n` suffix), `result.isError` and
 * JSON-RPC errors (such as -32602 invalid params) are error results. One run per
 * connection (an `initialize` starts the next); JSONL is streamed (see McpMessageLog).
 */
function looksLikeMcp(sample: DetectSample): boolean {
  if (looksLikeDesktopLog(sample.head)) return true;
  // A large JSON list of messages; a large file of one message per line is read by its lines below.
  const head = largeDocumentHead(sample);
  if (head !== null && head.startsWith('[')) return /^\[\s*\{\s*"jsonrpc"\s*:\s*"2\.0"/.test(head);
  const doc = sample.document;
  if (doc !== undefined) return Array.isArray(doc) ? doc.length > 0 && doc.every(fits) : fits(doc);
  return sample.jsonLines.length > 0 && sample.jsonLines.some((value) => rpcOf(value) !== null);
}

export const mcpFormat: TraceFormat = {
  id: 'mcp',
  description: 'MCP JSON-RPC message logs (tools/list, tools/call) and bare MCP results',
  detect(sample: DetectSample): number {
    // `"jsonrpc": "2.0"` messages are the protocol's own marker.
    return looksLikeMcp(sample) ? Evidence.signature : Evidence.none;
  },
  async parse(input, sink) {
    const log = new McpMessageLog(input.file, sink, input.limits.runIdleRecords);
    const start = await headOf(input);
    if (looksLikeDesktopLog(Buffer.from(start.head, 'utf8'))) {
      await forEachDesktopMessage(input, sink, (m) => {
        if (!log.read(m.value, m.line, m.server, m.ts)) sink.diagnostic({ ruleId: 'malformed-record', line: m.line, runId: m.server, message: 'message is not JSON-RPC' });
      });
      return;
    }
    if (start.firstLineIsRecord) {
      // A message log (JSONL): streamed, one message at a time.
      await forEachJsonLine(input, sink, (value, line) => {
        if (!log.read(value, line)) sink.diagnostic({ ruleId: 'malformed-record', line, message: 'line is not a JSON-RPC message' });
      });
      return;
    }
    const opening = start.head.trimStart();
    if (!opening.startsWith('[') && !opening.startsWith('{')) {
      // Not one document: lines after all (each bad line is reported on its own).
      await forEachJsonLine(input, sink, (value, line) => {
        if (!log.read(value, line)) sink.diagnostic({ ruleId: 'malformed-record', line, message: 'line is not a JSON-RPC message' });
      });
      return;
    }
    // One document: a list of messages is streamed, one message at a time; or one pretty-printed message.
    const read = await streamDocument(input, sink, { lists: ['$[*]'] }, ({ value, line, index }) => {
      if (!log.read(value, line)) sink.diagnostic({ ruleId: 'malformed-record', line, message: `item ${index} is not a JSON-RPC message` });
    });
    if (read && !Array.isArray(read.rest) && !log.read(read.rest, 1)) sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'document is not a JSON-RPC message' });
  },
};

const HEAD_CHARS = 256 * 1024;

/**
 * The start of the file (the lines of its first chunk, up to 256 KiB, for the Desktop
 * log's marker) and whether its first non-blank line is a JSON object on its own (a
 * message log, read as lines) rather than the start of a document. Only the first chunk
 * is read, so the file's facts (lines, final newline) are those of the read that follows.
 */
async function headOf(input: ParseInput): Promise<{ head: string; firstLineIsRecord: boolean }> {
  let head = '';
  let first: boolean | null = null;
  for await (const batch of input.lineBatches()) {
    for (const event of batch) {
      if (event.type !== 'line') {
        first ??= true;
        continue;
      }
      if (first === null && event.text.trim() === '') {
        head += '\n';
        continue;
      }
      first ??= firstIsRecord(event.text);
      head += `${event.text}\n`;
      if (head.length >= HEAD_CHARS) break;
    }
    break;
  }
  return { head, firstLineIsRecord: first ?? true };
}

function firstIsRecord(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}
