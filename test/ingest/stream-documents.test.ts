import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, tempDir } from '../helpers.js';
import { auditTemp, countRun } from './corpus.js';

const CLI = resolve('dist/cli.js');

/** An ADK session of `pairs` call/response pairs, each event carrying `padKb` KB of state the parser passes over. */
function writeAdkSession(path: string, pairs: number, padKb: number): void {
  const pad = 'abcdefghij'.repeat(padKb * 103).slice(0, padKb * 1024);
  const fd = openSync(path, 'w');
  writeSync(fd, '{\n  "id": "big",\n  "app_name": "a",\n  "user_id": "u",\n  "events": [');
  for (let i = 0; i < pairs; i += 1) {
    const call = { invocation_id: `i${i}`, author: 'agent', actions: { state_delta: { notes: pad } }, content: { parts: [{ function_call: { id: `c${i}`, name: 'search', args: { q: i } } }] } };
    const answer = { invocation_id: `i${i}`, author: 'agent', actions: { state_delta: { notes: pad } }, content: { parts: [{ function_response: { id: `c${i}`, name: 'search', response: { n: i } } }] } };
    writeSync(fd, `${i === 0 ? '' : ','}\n    ${JSON.stringify(call)},\n    ${JSON.stringify(answer)}`);
  }
  writeSync(fd, '\n  ]\n}\n');
  closeSync(fd);
}

describe('one-document formats are streamed (src/io/json-stream/)', () => {
  it('an 80 MB ADK session is audited by dist/cli.js in a 64 MB heap, where reading it whole cannot even be tried', () => {
    const root = tempDir();
    const file = join(root, 'session.json');
    writeAdkSession(file, 640, 64);
    expect(statSync(file).size).toBeGreaterThan(80 * 1024 * 1024);
    const run = (args: string[]) => spawnSync(process.execPath, ['--max-old-space-size=64', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    // The control: the same heap does not hold the file as one string and its parse.
    const whole = run(['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`]);
    expect(whole.status).not.toBe(0);
    const out = join(root, 'out.json');
    const audit = run([CLI, 'audit', file, '--format', 'json', '--fail-on', 'never', '-o', out]);
    // The one-line verdict (the report went to a file): its one finding, catalog-missing, is a note.
    expect(audit.stderr).toBe('✅ not gated (fail-on: never): 1 note\n');
    expect(audit.status).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { files: Array<{ format: string; records: number }>; findings: Array<{ ruleId: string }> };
    // 640 calls, 640 results, and one llm record per calling event.
    expect(report.files.map((f) => [f.format, f.records])).toEqual([['google-adk', 1920]]);
    expect(report.findings.map((f) => f.ruleId)).toEqual(['catalog-missing']);
  }, 120_000);

  it('a document cut short: the items before the cut are read, then one malformed-record at the line where the cut item begins', async () => {
    const messages = [0, 1, 2].map((i) => ({ id: `g${i}`, type: 'gemini', content: '', toolCalls: [{ id: `t${i}`, name: 'ls', args: { i }, status: 'success', result: [] }] }));
    const text = JSON.stringify({ sessionId: 's', projectHash: 'h', messages }, null, 2);
    // Cut in the middle of the third message, which begins on line 37 (counted with python's json.dumps(indent=2)).
    const cut = text.slice(0, text.indexOf('"t2"'));
    const { result, runs } = await auditTemp({ 'session.json': cut }, 'gemini-cli');
    expect(findingsOf(result, 'malformed-record')).toEqual([
      { line: 37, callId: null, tool: null, runId: null, message: 'not one JSON document: the document ends inside messages[2], which begins on this line (the file is cut short)' },
    ]);
    expect(runs.map(countRun)).toEqual([{ runId: 's', llm: 2, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: [] }]);
  });

  it('an item longer than max-element-bytes is one malformed-record naming the limit; the items after it are read', async () => {
    const events = [0, 1, 2].map((i) => ({ invocation_id: `i${i}`, author: 'agent', content: { parts: [{ function_call: { id: `c${i}`, name: 'f', args: { pad: i === 1 ? 'x'.repeat(5000) : '' } } }] } }));
    const text = JSON.stringify({ id: 's', app_name: 'a', user_id: 'u', events }, null, 1);
    const line = text.split('\n').findIndex((l, k) => l === '  {' && k > 10) + 1;
    const result = await auditFiles({ 'session.json': text }, { limits: { 'max-element-bytes': 4096 } });
    expect(findingsOf(result, 'malformed-record')).toEqual([
      { line, callId: null, tool: null, runId: null, message: 'events[1] is longer than the limit of 4096 bytes (limits.max-element-bytes); it was passed over' },
    ]);
    expect(result.files.map((f) => f.records)).toEqual([4]);
  });

  it('the run id and the catalog are found when they come after the list (the file is read twice)', async () => {
    const steps = [{ step_id: 1, source: 'agent', tool_calls: [{ tool_call_id: 'c1', function_name: 'bash', arguments: {} }], observation: { results: [{ source_call_id: 'c1', content: 'ok' }] } }];
    const atif = { steps, schema_version: 'ATIF-v1.4', agent: { name: 'a', tool_definitions: [{ type: 'function', function: { name: 'bash' } }] }, session_id: 'late' };
    const gemini = { projectHash: 'h', messages: [{ id: 'g', type: 'gemini', content: '', toolCalls: [{ id: 't', name: 'ls', args: {}, status: 'success', result: [] }] }], sessionId: 'late-too' };
    const { runs } = await auditTemp({ 'a.json': JSON.stringify(atif, null, 2) }, 'atif');
    expect(runs.map(countRun)).toEqual([{ runId: 'late', llm: 1, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['bash'] }]);
    const other = await auditTemp({ 'b.json': JSON.stringify(gemini, null, 2) }, 'gemini-cli');
    expect(other.runs.map((r) => r.runId)).toEqual(['late-too']);
  });

  it('a format that reads its document whole (Anthropic Messages) past max-document-bytes: one malformed-record naming the limit', async () => {
    const doc = { messages: [{ role: 'user', content: 'x'.repeat(3000) }, { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'f', input: {} }] }] };
    const result = await auditFiles({ 'm.json': JSON.stringify(doc) }, { limits: { 'max-document-bytes': 2048 } });
    expect(result.files.map((f) => f.format)).toEqual(['anthropic-messages']);
    expect(findingsOf(result, 'malformed-record')).toEqual([
      { line: 1, callId: null, tool: null, runId: null, message: 'the document is longer than the limit of 2048 bytes (limits.max-document-bytes), which this format reads whole; it was not read' },
    ]);
  });
});
