import fc from 'fast-check';
import { TOKEN_FORMATS } from '../../../src/sanitize/token-formats.js';
import { SECRET_KINDS } from '../../secret-samples.js';

/** One generated token of every prefixed format (built at run time from pieces, fixed seed). */
export const PLANTED = TOKEN_FORMATS.map(({ id }) => fc.sample(SECRET_KINDS[id]!, { seed: 35, numRuns: 1 })[0]!);

/**
 * A span log holding each token where trace text reaches the outputs: in a run id, a call id and a
 * tool name (an orphan call, so the call's finding names all three), in an error text, and on a line
 * that is no record (its excerpt goes into the malformed-record message).
 */
export function plantedTrace(): string {
  const lines: string[] = [];
  PLANTED.forEach(({ text }, i) => {
    lines.push(JSON.stringify({ run_id: `run ${text}`, kind: 'tool_call', call_id: `c${i} ${text}`, tool: `tool ${text}`, args: {} }));
    lines.push(JSON.stringify({ run_id: 'r', kind: 'tool_call', call_id: `e${i}`, tool: 'fetch', args: {} }));
    lines.push(JSON.stringify({ run_id: 'r', kind: 'tool_result', call_id: `e${i}`, tool: 'fetch', result: { error: `upstream refused ${text}` } }));
    lines.push(`{"broken": "${text}`);
  });
  return `${lines.join('\n')}\n`;
}

