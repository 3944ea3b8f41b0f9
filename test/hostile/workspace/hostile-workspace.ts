import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tempTree } from '../../helpers.js';

const line = (record: unknown) => `${JSON.stringify(record)}\n`;
export const TRACE = line({ run_id: 'r1', kind: 'tool_call', call_id: 'c1', tool: 'ls' }) + line({ run_id: 'r1', kind: 'tool_result', call_id: 'c1', tool: 'ls', result: { ok: true } });

/**
 * A workspace a pull request controls: a real trace, a `.git/config` holding a credential,
 * a folder outside the workspace holding traces, and folder symlinks that lead to them.
 */
export function hostileWorkspace(): { workspace: string; outside: string } {
  const outside = tempTree({ 'secret.jsonl': line({ run_id: 'OUTSIDE_SENTINEL', kind: 'tool_call', call_id: 'x', tool: 'OUTSIDE_SENTINEL' }), 'deep/more.jsonl': TRACE });
  const workspace = tempTree({ 'real/a.jsonl': TRACE, '.git/config': '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic GIT_SENTINEL\n', '.git/logs/x.jsonl': TRACE });
  symlinkSync('.git', join(workspace, 'traces'));
  symlinkSync(outside, join(workspace, 'out'));
  symlinkSync('/proc/self', join(workspace, 'proc'));
  mkdirSync(join(workspace, 'mid'));
  symlinkSync(outside, join(workspace, 'mid', 'link'));
  return { workspace, outside };
}

