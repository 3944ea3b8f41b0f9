import { isObject, own, str, type JsonObject } from '../facts/fields.js';

/** An ADK eval set: `{eval_set_id, eval_cases}` (or camelCase), or the older list of `{query, expected_tool_use}`. */
export function isAdkEvalSet(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.slice(0, 8).every((item) => isObject(item) && own(item, 'query') !== undefined && Array.isArray(own(item, 'expected_tool_use')));
  if (!isObject(value)) return false;
  const id = own(value, 'eval_set_id') ?? own(value, 'evalSetId');
  return typeof id === 'string' && Array.isArray(own(value, 'eval_cases') ?? own(value, 'evalCases'));
}

/** The one note an eval set gets: what it is, how many cases and expected tool calls it lists, and that nothing was audited. */
export function evalSetNote(value: unknown): string {
  let cases = 0;
  let expected = 0;
  let name = '';
  if (Array.isArray(value)) {
    cases = value.length;
    for (const item of value) if (isObject(item)) expected += listLength(own(item, 'expected_tool_use'));
  } else if (isObject(value)) {
    name = ` '${str(value, 'eval_set_id') ?? str(value, 'evalSetId') ?? ''}'`;
    const list = own(value, 'eval_cases') ?? own(value, 'evalCases');
    for (const item of Array.isArray(list) ? list : []) {
      if (!isObject(item)) continue;
      cases += 1;
      const turns = own(item, 'conversation');
      for (const turn of Array.isArray(turns) ? turns : []) if (isObject(turn)) expected += expectedCalls(turn);
    }
  }
  return `ADK eval set${name}: ${cases} eval case(s) with ${expected} expected tool call(s). An eval set describes the calls a run should make, not a run: nothing in it was audited (audit the session files the evaluation writes instead)`;
}

function expectedCalls(turn: JsonObject): number {
  const data = own(turn, 'intermediate_data') ?? own(turn, 'intermediateData');
  return isObject(data) ? listLength(own(data, 'tool_uses') ?? own(data, 'toolUses')) : 0;
}

function listLength(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}
