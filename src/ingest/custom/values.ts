import { toMillis } from '../facts/fields.js';

/** An id or a name: a non-empty string, or a finite number written as text. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** Epoch milliseconds from ISO text or a number of seconds, ms, µs or ns (told apart by size). */
export function timeOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isFinite(n)) {
    if (n >= 1e17) return n / 1e6;
    if (n >= 1e14) return n / 1e3;
  }
  return toMillis(n);
}

/** The longest text a mapping takes as a tool name. */
export const MAX_TOOL_NAME = 128;

/**
 * Why a text a mapping selected as a tool name is not one, or null: JSON text (the
 * query stopped at an object's text instead of the name in it), several lines, or
 * longer than MAX_TOOL_NAME characters. Such an item is a mapping warning, never a tool.
 */
export function toolNameProblem(name: string): string | null {
  const t = name.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) return 'JSON text, not a tool name';
  if (/[\r\n]/.test(name)) return 'a text of several lines, not a tool name';
  if (name.length > MAX_TOOL_NAME) return `a text of ${name.length} characters, not a tool name (at most ${MAX_TOOL_NAME})`;
  return null;
}
