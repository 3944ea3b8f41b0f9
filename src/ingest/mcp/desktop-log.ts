import { toMillis } from '../facts/fields.js';
import { eachLine, type ParseInput, type RecordSink } from '../types.js';

/**
 * Claude Desktop's MCP logs (`mcp.log`, `mcp-server-<name>.log`): one line per
 * event, the JSON-RPC traffic as
 * `<ISO time> [<server>] [info] Message from client|server: {...}`
 * (newer versions append ` { metadata: undefined }`; some swap the two brackets).
 */
const MESSAGE = /^(\S+)\s+\[([^\]]+)\]\s+\[([^\]]+)\]\s+Message from (?:client|server):\s*(\{.*)$/;
const LEVELS = new Set(['info', 'debug', 'warn', 'warning', 'error', 'trace']);
const TRAILER = /\s*\{\s*metadata:[^{}]*\}\s*$/;

export function looksLikeDesktopLog(head: Buffer): boolean {
  return /\] Message from (client|server): \{/.test(head.subarray(0, 256 * 1024).toString('utf8'));
}

export interface DesktopMessage {
  readonly line: number;
  readonly server: string;
  readonly ts: number | null;
  readonly value: unknown;
}

/** Reads the JSON-RPC messages of a Desktop log; other log lines are skipped, a message that is not JSON is reported. */
export async function forEachDesktopMessage(input: ParseInput, sink: RecordSink, onMessage: (message: DesktopMessage) => void): Promise<void> {
  for await (const event of eachLine(input)) {
    if (event.type !== 'line') continue;
    const m = MESSAGE.exec(event.text);
    if (!m) continue;
    const [, time, first, second, json] = m as unknown as [string, string, string, string, string];
    const server = LEVELS.has(first.toLowerCase()) ? second : first;
    let value: unknown;
    try {
      value = JSON.parse(json.replace(TRAILER, '')) as unknown;
    } catch {
      sink.diagnostic({ ruleId: 'malformed-record', line: event.line, runId: server, message: `message from the log of '${server}' is not JSON` });
      continue;
    }
    onMessage({ line: event.line, server, ts: toMillis(time), value });
  }
}
