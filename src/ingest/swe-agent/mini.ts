import { idOf, isObject, own, str, type JsonObject } from '../facts/fields.js';
import type { LineOf } from '../read/json-locate.js';
import { quotedName } from '../skip-reason.js';
import { argsOf, llmRecord, toRecord, type Place } from '../facts/tool-facts.js';
import type { RecordSink } from '../types.js';
import type { ToolResult } from '../../model/records.js';

/** The action block mini-swe-agent parses from an assistant message: ```mswea_bash_command or ```bash fences, or its XML tag. */
const ACTION_BLOCK = /```(?:mswea_bash_command|bash)[ \t]*\r?\n([\s\S]*?)\r?\n```|<mswea_bash_command>([\s\S]*?)<\/mswea_bash_command>/g;
const RETURN_CODE = /^\s*<returncode>\s*(-?\d+)\s*<\/returncode>/;
/** What only mini-swe-agent writes: its fence name, or its trajectory format marker. */
export const MINI_MARK = /mswea_bash_command|"trajectory_format"\s*:\s*"mini-swe-agent|"mini_version"\s*:\s*"/;

/** The messages of a mini-swe-agent trajectory: the file's list, or `messages` of `{info, messages, trajectory_format}`. */
export function miniMessages(doc: unknown): { messages: unknown[]; path: Array<string | number> } | null {
  if (Array.isArray(doc)) return { messages: doc, path: [] };
  if (isObject(doc) && Array.isArray(own(doc, 'messages'))) return { messages: own(doc, 'messages') as unknown[], path: ['messages'] };
  return null;
}

/**
 * A mini-swe-agent trajectory: role/content messages where the agent acts by
 * text or tool calls. Its marker (the `mswea_bash_command` fence or tag, `trajectory_format:
 * "mini-swe-agent-…"`, `info.mini_version`), or assistant ```bash blocks answered by user messages
 * that open with `<returncode>` (its observation template).
 */
export function isMiniSweAgent(doc: unknown): boolean {
  if (isObject(doc) && /^mini-swe-agent/.test(str(doc, 'trajectory_format') ?? '')) return true;
  const info = isObject(doc) ? own(doc, 'info') : undefined;
  if (isObject(info) && typeof own(info, 'mini_version') === 'string' && miniMessages(doc) !== null) return true;
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
 * Text actions: each assistant message with exactly one action block is a call
 * of `bash` (arguments `{command}`), answered by the next user message (its
 * `<returncode>` the exit code: not 0 is an error). An assistant message with
 * none or several blocks is a model turn without a call (mini-swe-agent
 * answers it with a format error, not an observation). One `ingest-note` per
 * run says how many calls were read from text. Tool-calling trajectories
 * (mini-swe-agent 2) are structured: an assistant message's `tool_calls` are the
 * calls, `role: tool` messages (`tool_call_id`, `extra.returncode`) their results.
 */
export function readMiniSweAgent(messages: readonly unknown[], base: Array<string | number>, { file, lineOf, sink }: Where): void {
  let textCalls = 0;
  let firstLine = 0;
  let open: string | null = null;
  const toolOf = new Map<string, string>();
  messages.forEach((message, i) => {
    const line = lineOf([...base, i]);
    const place: Place = { loc: { file, line }, runId: null, ts: null };
    if (!isObject(message)) return sink.skip({ line, reason: 'message that is not an object', value: message });
    const role = str(message, 'role');
    const text = textOf(own(message, 'content'));
    if (role === 'assistant') {
      sink.record(llmRecord(place));
      open = null;
      const calls = own(message, 'tool_calls');
      if (Array.isArray(calls) && calls.length > 0) return readToolCalls(calls, i, place, lineOf, base, sink, toolOf);
      const actions = actionsOf(text);
      if (actions.length !== 1) return sink.skip({ line, reason: actions.length === 0 ? 'assistant message without an action block' : 'assistant message with several action blocks (not run)' });
      open = `messages[${i}]`;
      sink.record(toRecord({ kind: 'call', callId: open, tool: 'bash', args: { command: actions[0] } }, place));
      textCalls += 1;
      if (firstLine === 0) firstLine = line;
      return;
    }
    const toolCallId = idOf(message, 'tool_call_id');
    if (role === 'tool' && toolCallId !== null) return sink.record(observation(toolCallId, toolOf.get(toolCallId) ?? null, text, message, place));
    if (role === 'user' && open !== null) {
      sink.record(observation(open, 'bash', text, message, place));
      open = null;
      return;
    }
    sink.skip({ line, reason: `${quotedName(role)} message that answers no action`, ...(role === 'tool' ? { value: message, toolLike: true } : {}) });
  });
  if (textCalls > 0) {
    sink.diagnostic({
      ruleId: 'ingest-note',
      line: firstLine,
      message: `${textCalls} call(s) read from text: each assistant message's one action block (\`\`\`mswea_bash_command, \`\`\`bash or <mswea_bash_command>) is a call of 'bash' and the next user message its result; these calls have no call ids in the file`,
    });
  }
}

function readToolCalls(calls: readonly unknown[], i: number, place: Place, lineOf: LineOf, base: Array<string | number>, sink: RecordSink, toolOf: Map<string, string>): void {
  calls.forEach((call: unknown, j) => {
    const fn = isObject(call) ? own(call, 'function') : undefined;
    const tool = isObject(fn) ? str(fn, 'name') : null;
    const line = lineOf([...base, i, 'tool_calls', j]);
    if (!isObject(call) || !isObject(fn) || tool === null) {
      sink.diagnostic({ ruleId: 'malformed-record', line, message: `messages[${i}].tool_calls[${j}] has no function name` });
      return;
    }
    const callId = idOf(call, 'id');
    if (callId !== null) toolOf.set(callId, tool);
    sink.record(toRecord({ kind: 'call', callId, tool, args: argsOf(own(fn, 'arguments')) }, { ...place, loc: { file: place.loc.file, line } }));
  });
}

/** A result: the exit code from `extra.returncode` (mini-swe-agent 2), else the `<returncode>` the content opens with. */
function observation(callId: string, tool: string | null, text: string, message: JsonObject, place: Place): ToolResult {
  const extra = own(message, 'extra');
  const recorded = isObject(extra) ? own(extra, 'returncode') : undefined;
  const code = RETURN_CODE.exec(text);
  const exitCode = typeof recorded === 'number' && Number.isInteger(recorded) ? recorded : code ? Number(code[1]) : null;
  const result = toRecord({ kind: 'result', callId, tool, content: own(message, 'content'), isError: exitCode !== null && exitCode !== 0, errorClass: null, errorCode: null }, place) as ToolResult;
  return { ...result, exitCode };
}

function actionsOf(text: string): string[] {
  return [...text.matchAll(ACTION_BLOCK)].map((m) => (m[1] ?? m[2]!).trim());
}

/** Message content as text: a string, or the text parts of a content list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (isObject(part) && typeof own(part, 'text') === 'string' ? (own(part, 'text') as string) : '')).join('\n');
}
