import { idOf, isObject, own, str, toMillis, type JsonObject } from '../facts/fields.js';

/** Event names that start a tool execution, and those that end one (case-insensitive). */
const START = /^(tool[._-]?start(ed)?|tool[._-]?call[._-]?start(ed)?|tool_execution_started|on_tool_start|pretooluse)$/i;
const END = /^(tool[._-]?(end|ended|finish|finished|complete|completed|error|failed)|tool[._-]?call[._-]?(end|ended|finished|completed)|tool_execution_(completed|failed)|on_tool_(end|error)|posttooluse(failure)?)$/i;
const FAILED = /(error|failed|failure)$/i;

/** One start or end line, with what it says about the tool. */
export interface ToolEvent {
  readonly phase: 'start' | 'end';
  readonly session: string | null;
  readonly tool: string;
  /** The call id when the line has one (then no pairing by order is needed). */
  readonly callId: string | null;
  readonly args: unknown;
  readonly result: unknown;
  readonly isError: boolean;
  readonly ts: number | null;
}

function eventName(obj: JsonObject): string | null {
  return str(obj, 'event') ?? str(obj, 'hook_event_name') ?? str(obj, 'event_type') ?? str(obj, 'type');
}

/**
 * A tool start or end line: an event name such as `tool.start` / `tool.end`,
 * `tool_execution_started` / `…_completed`, Claude Code hook inputs
 * (`PreToolUse` / `PostToolUse` / `PostToolUseFailure`), and a tool name
 * (`tool_name`, `toolName`, `tool`); null for anything else.
 */
export function toolEventOf(value: unknown): ToolEvent | null {
  if (!isObject(value)) return null;
  const name = eventName(value);
  if (name === null) return null;
  const phase = START.test(name) ? 'start' : END.test(name) ? 'end' : null;
  if (phase === null) return null;
  const tool = str(value, 'tool_name') ?? str(value, 'toolName') ?? str(value, 'tool');
  if (tool === null) return null;
  const error = own(value, 'error');
  const status = str(value, 'status');
  const isError = phase === 'end' && (FAILED.test(name) || (error !== undefined && error !== null && error !== false) || status === 'error' || status === 'failed' || status === 'failure');
  return {
    phase,
    session: idOf(value, 'session_id') ?? idOf(value, 'sessionId') ?? idOf(value, 'session'),
    tool,
    callId: idOf(value, 'tool_use_id') ?? idOf(value, 'tool_call_id') ?? idOf(value, 'call_id') ?? idOf(value, 'toolUseId'),
    args: own(value, 'tool_input') ?? own(value, 'input') ?? own(value, 'args') ?? own(value, 'parameters'),
    result: own(value, 'tool_response') ?? own(value, 'tool_output') ?? own(value, 'output') ?? own(value, 'result') ?? (isError ? error : undefined),
    isError,
    ts: toMillis(own(value, 'timestamp') ?? own(value, 'ts') ?? own(value, 'time')),
  };
}
