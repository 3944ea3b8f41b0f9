import { isObject, own, str, type JsonObject } from '../fields.js';
import type { LineOf } from '../json-locate.js';
import { quotedName } from '../skip-reason.js';
import { llmRecord, toRecord, type Place } from '../tool-facts.js';
import type { RecordSink } from '../types.js';
import type { ToolResult } from '../../model/records.js';

/** The fenced action block mini-swe-agent parses from an assistant message: ```mswea_bash_command or ```bash. */
const ACTION_BLOCK = /```(?:mswea_bash_command|bash)[ \t]*\r?\n([\s\S]*?)\r?\n```/g;
const RETURN_CODE = /^\s*<returncode>\s*(-?\d+)\s*<\/returncode>/;
/** What only mini-swe-agent writes: its fence name, or its trajectory format marker. */
export const MINI_MARK = /mswea_bash_command|"trajectory_format"\s*:\s*"mini-swe-agent/;

/** The messages of a mini-swe-agent trajectory: the file's list, or `messages` of `{info, messages, trajectory_format}`. */
export function miniMessages(doc: unknown): { messages: unknown[]; path: Array<string | number> } | null {
  if (Array.isArray(doc)) return { messages: doc, path: [] };
  if (isObject(doc) && Array.isArray(own(doc, 'messages'))) return { messages: own(doc, 'messages') as unknown[], path: ['messages'] };
  return null;
}

/**
 * A mini-swe-agent trajectory: role/content messages where the agent acts by
 * text. Its marker (the `mswea_bash_command` fence, `trajectory_format:
 * "mini-swe-agent-…"`), or assistant ```bash blocks answered by user messages
 * that open with `<returncode>` (its observation template).
 */
export function isMiniSweAgent(doc: unknown): boolean {
  if (isObject(doc) && /^mini-swe-agent/.test(str(doc, 'trajectory_format') ?? '')) return true;
  const found = miniMessages(doc);
  if (found === null || found.messages.length === 0 || !found.messages.every((m) => isObject(m) && typeof own(m, 'role') === 'string')) return false;
  const texts = found.messages.map((m) => ({ role: str(m as JsonObject, 'role'), text: textOf(own(m as JsonObject, 'content')) }));
  if (texts.some((m) => m.text.includes('mswea_bash_command'))) return true;
  return texts.some((m, i) => m.role === 'assistant' && actionsOf(m.text).length === 1 && texts[i + 1]?.role === 'user' && RETURN_CODE.test(texts[i + 1]!.text));
}

interface Where {
  readonly file: string;
  readonly lineOf: LineOf;
  readonly sink: RecordSink;
}

/**
 * Each assistant message with exactly one action block is a call of `bash`
 * (arguments `{command}`), answered by the next user message (its
 * `<returncode>` the exit code: not 0 is an error). An assistant message
 * with none or several blocks is a model turn without a call (mini-swe-agent
 * answers it with a format error, not an observation). One `ingest-note` per
 * run says the calls were read from text.
 */
export function readMiniSweAgent(messages: readonly unknown[], base: Array<string | number>, { file, lineOf, sink }: Where): void {
  let calls = 0;
  let firstLine = 0;
  let open: { callId: string; place: Place } | null = null;
  messages.forEach((message, i) => {
    const line = lineOf([...base, i]);
    const place: Place = { loc: { file, line }, runId: null, ts: null };
    if (!isObject(message)) return sink.skip({ line, reason: 'message that is not an object', value: message });
    const role = str(message, 'role');
    const text = textOf(own(message, 'content'));
    if (role === 'assistant') {
      sink.record(llmRecord(place));
      const actions = actionsOf(text);
      open = null;
      if (actions.length !== 1) return sink.skip({ line, reason: actions.length === 0 ? 'assistant message without an action block' : 'assistant message with several action blocks (not run)' });
      const callId = `messages[${i}]`;
      sink.record(toRecord({ kind: 'call', callId, tool: 'bash', args: { command: actions[0] } }, place));
      open = { callId, place };
      calls += 1;
      if (firstLine === 0) firstLine = line;
      return;
    }
    if (role === 'user' && open !== null) {
      sink.record(observation(open.callId, text, own(message, 'content'), place));
      open = null;
      return;
    }
    sink.skip({ line, reason: `${quotedName(role)} message that answers no action` });
  });
  if (calls > 0) {
    sink.diagnostic({
      ruleId: 'ingest-note',
      line: firstLine,
      message: `${calls} call(s) read from text: each assistant message's one fenced bash block is a call of 'bash' and the next user message its result; the file has no tool calls or call ids`,
    });
  }
}

function observation(callId: string, text: string, content: unknown, place: Place): ToolResult {
  const code = RETURN_CODE.exec(text);
  const exitCode = code ? Number(code[1]) : null;
  const result = toRecord({ kind: 'result', callId, tool: 'bash', content, isError: exitCode !== null && exitCode !== 0, errorClass: null, errorCode: null }, place) as ToolResult;
  return { ...result, exitCode };
}

function actionsOf(text: string): string[] {
  return [...text.matchAll(ACTION_BLOCK)].map((m) => m[1]!.trim());
}

/** Message content as text: a string, or the text parts of a content list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (isObject(part) && typeof own(part, 'text') === 'string' ? (own(part, 'text') as string) : '')).join('\n');
}
