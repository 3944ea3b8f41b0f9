import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { jsonl, tempTree } from '../helpers.js';
import { runBundle } from './run-cli.js';

// Every size limit is a setting (limits.* in the configuration file): past it, the file
// gets one finding that names the limit and the setting, and the audit goes on. Never an
// internal error. Asserted on the bundle a user runs: exit code, the first line, the finding.
const call = (i: number) => ({ run_id: 'r1', span_id: `s${i}`, kind: 'tool_call', call_id: `c${i}`, tool: 'read_file', args: { path: `src/m${i}.py` } });
const result = (i: number) => ({ run_id: 'r1', span_id: `t${i}`, kind: 'tool_result', call_id: `c${i}`, result: 'ok' });
const spanLog = (n: number) => jsonl(...Array.from({ length: n }, (_, i) => [call(i), result(i)]).flat());

function audit(files: Record<string, string | Uint8Array>, limits: string, file: string) {
  const root = tempTree({ ...files, 'limits.yml': `limits:\n${limits}` });
  const run = runBundle(['audit', file, '--config', 'limits.yml'], root);
  const lines = run.stdout.split('\n');
  // The first line is the verdict, the second the counts.
  return { code: run.code, stderr: run.stderr, first: lines[1], verdict: lines[0], findings: lines.filter((l) => /^(error|warning|note) {2,}/.test(l)).map((l) => l.replace(/\s+/g, ' ')) };
}

describe('size limits are settings, and past each the file gets a finding naming it (dist/cli.js)', () => {
  it('limits.max-file-bytes: a plain file larger than it is not read', () => {
    const text = spanLog(20);
    const run = audit({ 'big.jsonl': text }, '  max-file-bytes: 1000\n', 'big.jsonl');
    expect([run.code, run.stderr, run.verdict, run.first]).toEqual([1, '', '⚠️ nothing audited: no tool call was read from 1 file; ❌ 1 error', 'agent-trace-audit 0.1.0: 1 file(s), 0 run(s), 0 tool call(s), 0 result(s)']);
    expect(run.findings).toEqual([`error malformed-record big.jsonl - - file of ${Buffer.byteLength(text)} bytes is larger than the limit of 1000 bytes (limits.max-file-bytes); it was not read (after line 0)`]);
    // At the limit it is read whole.
    const fits = audit({ 'big.jsonl': text }, `  max-file-bytes: ${Buffer.byteLength(text)}\n`, 'big.jsonl');
    expect([fits.code, fits.verdict, fits.first]).toEqual([0, '✅ no errors (1 note)', 'agent-trace-audit 0.1.0: 1 file(s), 1 run(s), 20 tool call(s), 20 result(s)']);
  });

  it('limits.max-line-bytes: a longer line is skipped, the lines around it are read', () => {
    const long = { ...call(99), args: { path: 'x'.repeat(600) } };
    const text = spanLog(2) + jsonl(long) + jsonl(result(99));
    const run = audit({ 'long.jsonl': text }, '  max-line-bytes: 500\n', 'long.jsonl');
    expect([run.code, run.stderr, run.verdict, run.first]).toEqual([1, '', '❌ 2 errors', 'agent-trace-audit 0.1.0: 1 file(s), 1 run(s), 2 tool call(s), 3 result(s)']);
    const line = Buffer.byteLength(JSON.stringify(long));
    expect(run.findings.filter((f) => f.includes('malformed-record'))).toEqual([`error malformed-record long.jsonl:5 - - line of ${line} bytes is longer than the limit of 500 bytes (limits.max-line-bytes)`]);
  });

  it('limits.max-inflated-bytes: a .gz stops there; what was inflated before is audited', () => {
    const text = spanLog(200);
    const run = audit({ 'log.jsonl.gz': gzipSync(text) }, '  max-inflated-bytes: 4096\n', 'log.jsonl.gz');
    // The lines wholly inside the first 4096 bytes are read; the one cut there is the last line read.
    const cut = text.slice(0, 4096).split('\n').length;
    expect([run.code, run.stderr, run.verdict]).toEqual([1, '', '❌ 3 errors']);
    expect(run.first).toMatch(/^agent-trace-audit 0\.1\.0: 1 file\(s\), 1 run\(s\), \d+ tool call\(s\), \d+ result\(s\)$/);
    expect(run.findings.filter((f) => f.includes('limits.'))).toEqual([`error malformed-record log.jsonl.gz:${cut} - - inflated size passed the limit of 4096 bytes (limits.max-inflated-bytes); reading stopped there (after line ${cut})`]);
  });

  it('limits.max-document-bytes: a one-document file larger than it is reported, not parsed', () => {
    // An Anthropic Messages request: a format read whole (its shape is judged on the whole list).
    const messages = Array.from({ length: 40 }, (_, i) => [
      { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'get_weather', input: { q: `city ${i}` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'sunny' }] },
    ]).flat();
    const text = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, tools: [{ name: 'get_weather', input_schema: { type: 'object' } }], messages }, null, 2);
    const run = audit({ 'messages.json': text }, '  max-document-bytes: 2048\n', 'messages.json');
    expect([run.code, run.stderr, run.verdict, run.first]).toEqual([1, '', '⚠️ nothing audited: no tool call was read from 1 file (1 file holds tool calls that were not read); ❌ 1 error', 'agent-trace-audit 0.1.0: 1 file(s), 0 run(s), 0 tool call(s), 0 result(s)']);
    expect(run.findings).toEqual([
      'error malformed-record messages.json:1 - - the document is longer than the limit of 2048 bytes (limits.max-document-bytes), which this format reads whole; it was not read',
      // 40 tool_use blocks, 40 tool_result blocks each with a tool_use_id: the calls the unread document holds.
      "warning partial-read messages.json:17 - - no tool call was read ('anthropic-messages'), but the file holds 120 tool-shaped place(s): type: tool_use ×40, type: tool_result ×40, tool_use_id ×40; first at line 17",
    ]);
  });

  it('a limit that is not a positive whole number is a one-line configuration error (exit 2)', () => {
    const root = tempTree({ 'a.jsonl': spanLog(1), 'limits.yml': 'limits:\n  max-file-bytes: -1\n' });
    const run = runBundle(['audit', 'a.jsonl', '--config', 'limits.yml'], root);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toMatch(/^config: limits\.yml: limits\.max-file-bytes: /);
  });
});
