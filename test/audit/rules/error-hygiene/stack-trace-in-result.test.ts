import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TRACE_FIXTURES } from '../../../fixtures/stack-traces/table.js';
import { stackTraceInResult } from '../../../../src/audit/rules/error-hygiene/stack-trace-in-result.js';
import type { FindingDraft } from '../../../../src/audit/rules/rule-types.js';
import type { TraceRecord } from '../../../../src/model/records.js';
import { runOf } from '../../../../src/audit/held/hold.js';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';
import { RunMemos } from '../../../../src/audit/held/memo.js';

const read = (file: string) => readFileSync(`test/fixtures/stack-traces/${file}`, 'utf8');
const call = { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'update_ticket' };
const result = (content: unknown) => ({ run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'update_ticket', is_error: true, result: content });
const llm = { run_id: 'r', kind: 'llm' };

describe('stack-trace-in-result', () => {
  it('reports language, frames and the token cost times the later llm turns', async () => {
    const audit = await auditFiles({ 't.jsonl': jsonl(call, result(read('python-simple.txt')), llm, llm, llm) });
    expect(findingsOf(audit, 'stack-trace-in-result')).toEqual([
      { line: 2, callId: 'c1', tool: 'update_ticket', runId: 'r', message: "Python traceback (4 frames, ~262 tokens) in the result of 'update_ticket'; re-read on 3 later llm turns: ~786 tokens" },
    ]);
    expect(audit.metrics['stack-trace-in-result.traces']).toBe(1);
    expect(audit.metrics['stack-trace-in-result.tokens']).toBe(786);
  });

  it('finds traces in a JSON field, a content array and JSON inside a string', async () => {
    const java = read('java-caused-by.txt');
    const audit = await auditFiles({
      't.jsonl': jsonl(
        llm,
        result({ error: 'internal', detail: java }),
        result([{ type: 'text', text: read('rust-panic.txt') }]),
        result(JSON.stringify({ error: { message: 'boom', stack: read('node-typeerror.txt') } })),
        llm,
      ),
    });
    expect(findingsOf(audit, 'stack-trace-in-result').map((f) => [f.line, f.message])).toEqual([
      [2, "Java/JVM stack trace (7 frames, ~175 tokens) in the result of 'update_ticket' at detail; re-read on 1 later llm turn: ~175 tokens"],
      [3, "Rust panic (1 frame, ~36 tokens) in the result of 'update_ticket' at [0].text; re-read on 1 later llm turn: ~36 tokens"],
      [4, "JavaScript stack trace (7 frames, ~199 tokens) in the result of 'update_ticket' at <json>.error.stack; re-read on 1 later llm turn: ~199 tokens"],
    ]);
  });

  it('finds every fixture of the table with its language and frame count', async () => {
    const records = TRACE_FIXTURES.map((f, i) => ({ run_id: 'r', kind: 'tool_result', call_id: `c${i}`, tool: 'run', output: read(f.file) }));
    const audit = await auditFiles({ 't.jsonl': jsonl(...records) });
    const found = findingsOf(audit, 'stack-trace-in-result').map((f) => /^(.+?) \((\d+) frames?,/.exec(f.message)!.slice(1, 3).join(' '));
    const names = { rust: 'Rust panic', go: 'Go panic', python: 'Python traceback', java: 'Java/JVM stack trace', dotnet: '.NET stack trace', ruby: 'Ruby backtrace', javascript: 'JavaScript stack trace' };
    expect(found).toEqual(TRACE_FIXTURES.map((f) => `${names[f.language]} ${f.frames}`));
    expect(findingsOf(audit, 'stack-trace-in-result')[0]!.message).toMatch(/; no later llm turn in the run$/);
  });

  it('passes ordinary multi-line results that mention "at" and "line"', async () => {
    const audit = await auditFiles({
      't.jsonl': jsonl(
        result('Read line 3 of the poem aloud.\nThen line 4, at your own pace.'),
        result({ text: 'Let us meet at 5pm at the station.\n  at the north entrance\n  at the clock' }),
        result([{ type: 'text', text: 'Schedule:\n  at 10:30:00 standup\n  at 11:45:00 review' }]),
        result({ error: 'invalid_status', message: 'must be one of: open, pending, closed\nreceived: OPEN' }),
        llm,
      ),
    });
    expect(findingsOf(audit, 'stack-trace-in-result')).toEqual([]);
    expect(audit.metrics['stack-trace-in-result.traces']).toBeUndefined();
  });
});

describe('stack-trace-in-result on records that share a line (whole-document formats)', () => {
  it('counts the later llm turns by record order, not by line', () => {
    const base = { runId: 'r', ts: null, spanId: null, catalogSha256: null, loc: { file: 'f', line: 1 } };
    const llmRecord: TraceRecord = { kind: 'llm', ...base, endTs: null };
    const resultRecord: TraceRecord = { kind: 'tool_result', ...base, callId: 'c1', tool: 'update_ticket', content: read('python-simple.txt'), isError: true, errorClass: null, errorCode: null, httpStatus: null, exitCode: null, index: null };
    const found: FindingDraft[] = [];
    const metrics: Array<[string, unknown]> = [];
    stackTraceInResult.check!(runOf('f', 'r', 'test', [llmRecord, resultRecord, llmRecord, llmRecord]), { options: {}, state: undefined, memos: new RunMemos(), metric: (name, value) => metrics.push([name, value]) }, (d) => found.push(d));
    expect(found.map((f) => f.message)).toEqual(["Python traceback (4 frames, ~262 tokens) in the result of 'update_ticket'; re-read on 2 later llm turns: ~524 tokens"]);
    expect(metrics).toEqual([['traces', 1], ['tokens', 524]]);
  });
});
