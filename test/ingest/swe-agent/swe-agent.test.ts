import { describe, expect, it } from 'vitest';
import { corpusCounts, corpusFile, describeCorpus, itCorpus } from '../../public-corpus.js';
import { auditPaths, auditTemp, countRun, findingList } from '../corpus.js';

const FC = 'swe-agent/sweagent-fc-test-repo-1c2844.traj';
const TEXT = 'swe-agent/sweagent-text-humanevalfix-python-0.traj';
const MINI_LOCAL = 'swe-agent/mini-swe-agent-local.traj.json';
const MINI_ISSUE = 'swe-agent/mini-swe-agent-github-issue.traj.json';

/** Calls, results and orphans as the manifest counts them (python3, not this tool). */
function expected(file: string) {
  const { calls, results, orphans } = corpusCounts(file);
  return { calls, results, orphans };
}

async function read(file: string) {
  const path = corpusFile(file);
  const { result, runs } = await auditPaths([path]);
  expect(runs).toHaveLength(1);
  const counts = countRun(runs[0]!);
  return { result, run: runs[0]!, counts, got: { calls: counts.calls, results: counts.results, orphans: counts.orphans.length }, findings: findingList(result).map(([rule, line, , callId]) => [rule, line, callId]) };
}

describeCorpus('swe-agent: function-calling trajectories', [FC], () => {
  it('reads the history: tool_calls answered by tool messages keyed by tool_call_ids (no false orphans)', async () => {
    const { result, run, got, findings } = await read(FC);
    expect(result.files[0]!.format).toBe('swe-agent');
    expect(got).toEqual(expected(FC));
    expect(run.calls.map((c) => [c.callId, c.tool])).toEqual([
      ['call_fJuazlMUN5fQDQ73G6XSpYpx', 'find_file'],
      ['call_OhmPHGZp0XJ6JRnNkQaYcBMs', 'open'],
      ['call_DVnbJcFrvwPsrPt3KfIMf7OH', 'edit'],
      ['call_dcF76aXH6e1pzqRwGxOwpuxb', 'bash'],
    ]);
    expect(run.calls[0]!.args).toEqual({ file_name: 'missing_colon.py' });
    // The file has no tool catalog: the one finding, a true one. No note: the calls are structured.
    expect(findings).toEqual([['catalog-missing', 80, null]]);
    expect(result.files[0]!.skipped).toEqual([
      { reason: 'history message of role "system"', count: 1, firstLine: 61 },
      { reason: 'history message of role "user"', count: 1, firstLine: 67 },
      { reason: 'trajectory step (the history holds the calls)', count: 5, firstLine: 4 },
    ]);
  });
});

describeCorpus('swe-agent: text-action trajectories', [TEXT], () => {
  it('each trajectory step is a call of its command and its observation the result, with one note saying so', async () => {
    const { result, run, got, findings } = await read(TEXT);
    expect(result.files[0]!.format).toBe('swe-agent');
    expect(got).toEqual(expected(TEXT));
    expect(run.calls.map((c) => [c.callId, c.tool])).toEqual([
      ['trajectory[0]', 'ls'],
      ['trajectory[1]', 'open'],
      ['trajectory[2]', 'edit'],
      ['trajectory[3]', 'python'],
      ['trajectory[4]', 'submit'],
    ]);
    expect(run.calls[2]!.args).toEqual({ command: 'edit 15:15\n                distance = abs(elem - elem2)\nend_of_edit' });
    expect(findings).toEqual([['catalog-missing', 4, null], ['ingest-note', 4, null]]);
    expect(result.files[0]!.skipped).toEqual([{ reason: 'history message (the trajectory steps hold the actions)', count: 11, firstLine: 41 }]);
    expect(result.findings.find((f) => f.ruleId === 'ingest-note')!.message).toMatch(/^5 call\(s\) read from text: /);
  });
});

const FC_SIMPLE = 'swe-agent/sweagent-fc-function-calling-simple.traj';
const MORE_TEXT = ['swe-agent/sweagent-text-pydicom-1458.traj', 'swe-agent/sweagent-text-ctf-i-got-id-demo.traj'];

describeCorpus('swe-agent: a function-calling history alone', [FC_SIMPLE], () => {
  it('{history: [...]} with SWE-agent message types: results keyed by tool_call_ids, no false orphans', async () => {
    const { result, run, got, findings } = await read(FC_SIMPLE);
    expect(result.files[0]!.format).toBe('swe-agent');
    expect(got).toEqual(expected(FC_SIMPLE));
    expect(run.calls.map((c) => c.tool)).toEqual(['find_file', 'open', 'edit', 'bash', 'submit']);
    expect(findings).toEqual([['catalog-missing', 22, null]]);
  });
});

describeCorpus('swe-agent: more text-action trajectories', MORE_TEXT, () => {
  it.each(MORE_TEXT)('%s: one call per step, no orphan, one note', async (file) => {
    const { result, got, findings } = await read(file);
    expect(result.files[0]!.format).toBe('swe-agent');
    expect(got).toEqual(expected(file));
    const rules = findings.map(([rule]) => rule);
    expect(rules.filter((rule) => rule === 'ingest-note')).toHaveLength(1);
    for (const rule of ['orphan-call', 'unmatched-result', 'malformed-record', 'unknown-format', 'partial-read']) expect(rules).not.toContain(rule);
  });
});

describe('mini-swe-agent: trajectories', () => {
  itCorpus('the one fenced bash block of an assistant message is a call, the next user message its result', [MINI_LOCAL], async () => {
    const { result, run, got, findings } = await read(MINI_LOCAL);
    expect(result.files[0]!.format).toBe('mini-swe-agent');
    expect(got).toEqual(expected(MINI_LOCAL));
    expect(run.calls.map((c) => [c.callId, c.tool, c.args])).toEqual([
      ['messages[2]', 'bash', { command: "echo 'hello world'" }],
      ['messages[4]', 'bash', { command: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT' }],
    ]);
    expect(run.results.map((r) => r.exitCode)).toEqual([0, null]);
    expect(findings).toEqual([['catalog-missing', 10, null], ['ingest-note', 10, null]]);
  });

  itCorpus('a non-zero <returncode> is an error result', [MINI_ISSUE], async () => {
    const { result, counts, got, findings } = await read(MINI_ISSUE);
    expect(result.files[0]!.format).toBe('mini-swe-agent');
    expect(got).toEqual(expected(MINI_ISSUE));
    // python3: two observations open with <returncode>1</returncode> (messages 3 and 17).
    expect(counts.errors).toBe(2);
    expect(findings.filter(([rule]) => rule === 'ingest-note' || rule === 'malformed-record' || rule === 'unknown-format' || rule === 'orphan-call')).toEqual([['ingest-note', 10, null]]);
  });
});

describe('mini-swe-agent and SWE-agent: shapes beyond the public files', () => {
  const system = { role: 'system', content: 'Reply with one ```mswea_bash_command block.' };
  it('the {info, messages, trajectory_format} document; none or several blocks are no call; a last action without an answer is an orphan', async () => {
    const doc = {
      info: { exit_status: 'LimitsExceeded' },
      trajectory_format: 'mini-swe-agent-1',
      messages: [
        system,
        { role: 'user', content: 'Fix the bug' },
        { role: 'assistant', content: 'Two at once:\n```bash\nls\n```\n```bash\npwd\n```' },
        { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks.' },
        { role: 'assistant', content: [{ type: 'text', text: 'THOUGHT: look\n\n```bash\ngrep -rn foo .\n```' }] },
        { role: 'user', content: '<returncode>0</returncode>\n<output>\n./a.py:1:foo\n</output>' },
        { role: 'assistant', content: 'Run it\n\n```bash\npython a.py\n```' },
      ],
    };
    const { result, runs } = await auditTemp({ 'run.traj.json': JSON.stringify(doc, null, 2) });
    expect(result.files[0]!.format).toBe('mini-swe-agent');
    expect(countRun(runs[0]!)).toMatchObject({ llm: 3, calls: 2, results: 1, orphans: ['messages[6]:bash'] });
    expect(findingList(result).map(([rule, , , callId]) => [rule, callId])).toEqual([
      ['catalog-missing', null],
      ['ingest-note', null],
      ['orphan-call', 'messages[6]'],
    ]);
  });

  it('mini-swe-agent 2 tool calling: tool_calls are the calls, role tool messages (extra.returncode) the results, no text note', async () => {
    // The shape src/minisweagent/agents/default.py serialize() and models/utils/actions_toolcall.py write.
    const call = (id: string, command: string) => ({ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } });
    const doc = {
      info: { mini_version: '2.0.0', exit_status: 'Submitted' },
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Fix the bug' },
        { role: 'assistant', content: null, tool_calls: [call('call_a', 'ls'), call('call_b', 'false')], extra: { actions: [{ command: 'ls', tool_call_id: 'call_a' }, { command: 'false', tool_call_id: 'call_b' }] } },
        { role: 'tool', tool_call_id: 'call_a', content: '<returncode>0</returncode>\n<output>a.py</output>', extra: { returncode: 0 } },
        { role: 'tool', tool_call_id: 'call_b', content: '<output></output>', extra: { returncode: 1 } },
        { role: 'assistant', content: null, tool_calls: [call('call_c', 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')] },
      ],
      trajectory_format: 'mini-swe-agent-1.1',
    };
    const { result, runs } = await auditTemp({ 'run.traj.json': JSON.stringify(doc, null, 2) });
    expect(result.files[0]!.format).toBe('mini-swe-agent');
    expect(countRun(runs[0]!)).toMatchObject({ llm: 2, calls: 3, results: 2, errors: 1, orphans: ['call_c:bash'] });
    expect(runs[0]!.results.map((r) => [r.callId, r.tool, r.exitCode])).toEqual([['call_a', 'bash', 0], ['call_b', 'bash', 1]]);
    expect(findingList(result).map(([rule]) => rule).filter((rule) => rule === 'ingest-note')).toEqual([]);
  });

  it('the XML action tag is an action block too', async () => {
    const doc = [
      { role: 'system', content: 'Reply with <mswea_bash_command>cmd</mswea_bash_command>.' },
      { role: 'assistant', content: 'THOUGHT: list\n<mswea_bash_command>ls -la</mswea_bash_command>' },
      { role: 'user', content: '<returncode>0</returncode>\n<output>\n.\n</output>' },
    ];
    const { result, runs } = await auditTemp({ 'x.traj.json': JSON.stringify(doc, null, 2) });
    expect(result.files[0]!.format).toBe('mini-swe-agent');
    expect(runs[0]!.calls.map((c) => c.args)).toEqual([{ command: 'ls -la' }]);
    expect(countRun(runs[0]!)).toMatchObject({ calls: 1, results: 1, orphans: [] });
  });

  it('a message list with ```bash blocks but no mini-swe-agent marker or <returncode> answers is not claimed', async () => {
    const doc = [
      { role: 'user', content: 'How do I list files?' },
      { role: 'assistant', content: 'Use:\n```bash\nls -la\n```' },
      { role: 'user', content: 'thanks' },
    ];
    const { result } = await auditTemp({ 'chat.json': JSON.stringify(doc) });
    expect(result.files[0]!.format).toBe('openai');
  });

  it('a text-action history alone: each assistant action a call, the message after it the observation', async () => {
    const message = (role: string, type: string, content: string, action?: string) => ({ role, content, agent: 'main', message_type: type, ...(action ? { action, thought: content } : {}) });
    const doc = {
      history: [
        message('system', 'system_prompt', 'SETTING: …'),
        message('user', 'observation', 'ISSUE: …'),
        message('assistant', 'action', 'Look first.\n```\nls -a\n```', 'ls -a\n'),
        message('user', 'observation', 'main.py\n'),
        message('assistant', 'action', 'Done.\n```\nsubmit\n```', 'submit\n'),
      ],
    };
    const { result, runs } = await auditTemp({ 'h.traj': JSON.stringify(doc, null, 2) });
    expect(result.files[0]).toMatchObject({ format: 'swe-agent', skipped: [{ reason: 'history message of role "system"', count: 1 }, { reason: 'history message of role "user"', count: 1 }] });
    // The last submit, with nothing after it, ends the run: it is its own result, not an orphan.
    expect(countRun(runs[0]!)).toMatchObject({ llm: 2, calls: 2, results: 2, orphans: [] });
    expect(runs[0]!.results.map((r) => [r.callId, r.tool, r.content])).toEqual([['history[2]', 'ls', 'main.py\n'], ['history[4]', 'submit', 'submit']]);
    expect(findingList(result).map(([rule]) => rule)).toEqual(['catalog-missing', 'ingest-note']);
  });

  it('a SWE-agent text trajectory whose last step has no observation leaves that call an orphan', async () => {
    const doc = { environment: 'swe_main', trajectory: [{ action: 'ls\n', observation: null, response: '', thought: '' }, { action: 'submit\n', observation: null, response: '', thought: '' }], history: [], info: {} };
    const { result, runs } = await auditTemp({ 'x.traj': JSON.stringify(doc, null, 2) });
    expect(result.files[0]!.format).toBe('swe-agent');
    // Only a last submit is answered by itself.
    expect(countRun(runs[0]!)).toMatchObject({ calls: 2, results: 1, orphans: ['trajectory[0]:ls'] });
  });
});
