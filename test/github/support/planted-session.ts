import { randomBytes, randomUUID } from 'node:crypto';
import { stamp } from '../../audit/findings/rerun-suite.js';
import type { Severity } from '../../../src/model/finding.js';
import { FINDINGS_OF, type Defect } from './planted-pr.js';

/**
 * A scenario of the agent suite written as a Claude Code session (`claude -p` writes one
 * file per session: `sessions/<session id>.jsonl`), afresh as a live run writes it: a new
 * session id (the file's name), message uuids, time stamps and `toolu_` ids on every call.
 * Its scenario is its first user message (docs/action.md, "A stable scenario name"), the
 * same prompt on every run. The defects are those of planted-pr.ts a session can hold
 * (no catalog: no unknown tool): each is one tool use (or one result) and gives the
 * findings FINDINGS_OF lists; `fixed: true` gives the same calls, each answered, without
 * the traceback or the key: no finding. `ids` is filled with plan id → the id written.
 */
export type SessionDefect = Exclude<Defect, 'unknown'>;

/**
 * What each defect gives in a session: those of planted-pr.ts, and for a call never answered
 * the agent going on to its next call (continued-while-outstanding), for a traceback the
 * error as plain text (unstructured-error).
 */
export const SESSION_FINDINGS_OF: Readonly<Record<Defect, ReadonlyArray<readonly [string, Severity]>>> = {
  ...FINDINGS_OF,
  orphan: [...FINDINGS_OF.orphan, ['continued-while-outstanding', 'warning']],
  traceback: [...FINDINGS_OF.traceback, ['unstructured-error', 'warning']],
};

const TOOLS = ['Read', 'Grep', 'WebFetch', 'Bash'];

export function plantedSession(prompt: string, defects: readonly SessionDefect[], options: { fixed?: boolean; ids: Map<string, string> }): { file: string; text: string } {
  const fixed = options.fixed === true;
  const sessionId = randomUUID();
  let ms = stamp().ms;
  const base = () => ({ sessionId, uuid: randomUUID(), timestamp: new Date((ms += 9)).toISOString(), cwd: '/work/agent-app', version: '2.0.0' });
  const idOf = (id: string) => {
    if (!options.ids.has(id)) options.ids.set(id, `toolu_${randomBytes(12).toString('base64url')}`);
    return options.ids.get(id)!;
  };
  const lines: unknown[] = [{ ...base(), type: 'user', message: { role: 'user', content: prompt } }];
  const use = (id: string, name: string, input: Record<string, unknown>) => lines.push({ ...base(), type: 'assistant', message: { id: `msg_${randomBytes(12).toString('base64url')}`, role: 'assistant', content: [{ type: 'tool_use', id: idOf(id), name, input }] } });
  const answer = (id: string, content: string, error = false) => lines.push({ ...base(), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: idOf(id), content, ...(error ? { is_error: true } : {}) }] } });
  TOOLS.forEach((tool, i) => {
    use(`ok-${i}`, tool, { path: `src/clean_${i}.py` });
    answer(`ok-${i}`, 'ok');
  });
  defects.forEach((defect, n) => {
    const id = `${defect}-${n}`;
    const path = `src/module_${n}.py`;
    if (defect === 'orphan') {
      use(id, 'Read', { file_path: path });
      if (fixed) answer(id, 'ok');
    } else if (defect === 'ghost') {
      if (fixed) use(id, 'Grep', { pattern: `module_${n}` });
      answer(id, 'no matches');
    } else if (defect === 'secret') {
      use(id, 'WebFetch', { url: `https://example.com/page/${n}`, ...(fixed ? {} : { headers: { 'x-api-key': `AKIAPLANTED${String(n).padStart(9, '0')}` } }) });
      answer(id, 'ok');
    } else {
      use(id, 'Bash', { command: `pytest tests/test_module_${n}.py` });
      const traceback = `Traceback (most recent call last):\n  File "/srv/agent/tools/search.py", line ${40 + n}, in search\n    raise TimeoutError('index did not answer')\nTimeoutError: index did not answer`;
      answer(id, fixed ? '1 passed' : traceback, !fixed);
      use(`${id}-retry`, 'Bash', { command: `pytest tests/test_module_${n}.py -x` });
      answer(`${id}-retry`, '1 passed');
    }
  });
  lines.push({ ...base(), type: 'assistant', message: { id: `msg_${randomBytes(12).toString('base64url')}`, role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } });
  return { file: `sessions/${sessionId}.jsonl`, text: lines.map((l) => `${JSON.stringify(l)}\n`).join('') };
}
