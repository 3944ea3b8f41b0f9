import fc from 'fast-check';
import { TOKEN_FORMATS } from '../../../src/sanitize/token-formats.js';
import { SECRET_KINDS } from '../../secret-samples.js';

/** One generated token of every prefixed format (built at run time from pieces, fixed seed). */
export const PLANTED = TOKEN_FORMATS.map(({ id }) => fc.sample(SECRET_KINDS[id]!, { seed: 35, numRuns: 1 })[0]!);

/**
 * Square's `EAAA` form is not found after a letter or digit (docs/rules/secret-in-trace.md:
 * `EAAA` and 60 base64 characters turn up in base64 of binary data), so it is glued to
 * `_` there instead.
 */
const glue = (ruleId: string, text: string, letter: string) => (ruleId === 'square-token' && text.startsWith('EAAA') ? '_' : letter);

/** The token as a JSON string's text: its first character as `\uXXXX`, every `/` as `\/`. */
export function jsonEscaped(text: string): string {
  return `\\u${text.charCodeAt(0).toString(16).padStart(4, '0')}${text.slice(1).replace(/\//g, '\\/')}`;
}

/**
 * A span log holding each token where trace text reaches the outputs: in a run id, a call id and a
 * tool name (an orphan call, so the call's finding names all three), in an error text, and on a line
 * that is no record (its excerpt goes into the malformed-record message). Each token stands there
 * after a space, after `_` (call ids `u…`), glued to a letter or digit (call ids `g…`), and written
 * with JSON escapes (call ids `x…`, raw lines, the error text as JSON inside a string).
 */
export function plantedTrace(): string {
  const lines: string[] = [];
  PLANTED.forEach(({ ruleId, text }, i) => {
    lines.push(JSON.stringify({ run_id: `run ${text}`, kind: 'tool_call', call_id: `c${i} ${text}`, tool: `tool ${text}`, args: {} }));
    lines.push(JSON.stringify({ run_id: 'r', kind: 'tool_call', call_id: `e${i}`, tool: 'fetch', args: {} }));
    lines.push(JSON.stringify({ run_id: 'r', kind: 'tool_result', call_id: `e${i}`, tool: 'fetch', result: { error: `upstream refused ${text}` } }));
    lines.push(`{"broken": "${text}`);
    // After `_`.
    lines.push(JSON.stringify({ run_id: `run_${text}`, kind: 'tool_call', call_id: `u${i}_${text}`, tool: `tool_${text}`, args: { q: `arg_${text}` } }));
    lines.push(JSON.stringify({ run_id: 'r', kind: 'tool_result', call_id: `e${i}`, tool: 'fetch', result: { error: `code_${text}` } }));
    // Glued to a letter or a digit.
    const l = glue(ruleId, text, 'x');
    const d = glue(ruleId, text, '7');
    lines.push(JSON.stringify({ run_id: `run${l}${text}`, kind: 'tool_call', call_id: `g${i}${d}${text}`, tool: `tool${l}${text}`, args: { q: `arg${d}${text}` } }));
    lines.push(JSON.stringify({ run_id: 'r', kind: 'tool_result', call_id: `e${i}`, tool: 'fetch', result: { error: `code${d}${text}` } }));
    lines.push(`{"broken": "id${l}${text}`);
    // Written with JSON escapes, by hand.
    const esc = jsonEscaped(text);
    lines.push(`{"run_id":"run ${esc}","kind":"tool_call","call_id":"x${i}_${esc}","tool":"tool_${esc}","args":{"q":"${esc}"}}`);
    lines.push(`{"run_id":"r","kind":"tool_result","call_id":"e${i}","tool":"fetch","result":{"error":"{\\"detail\\": \\"refused ${esc.replace('\\', '\\\\')}\\"}"}}`);
    lines.push(`{"broken": "${esc}`);
  });
  return `${lines.join('\n')}\n`;
}
