import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { configFileSchema, loadConfigFile, resolveConfig, type ConfigFile } from '../../../src/config/config.js';
import { ConfigurationError } from '../../../src/errors.js';
import { formatsFor } from '../../../src/ingest/custom/index.js';
import { sourceReport } from '../../../src/action/report-source.js';
import { readInputs } from '../../../src/github/inputs.js';
import { cli } from '../../cli/run-cli.js';
import { audited, jsonl, tempDir, tempTree } from '../../helpers.js';

/** The first yaml block of docs/formats/custom.md: the `my-log` JSONL mapping. */
const MY_LOG = /```yaml\n([\s\S]*?)```/.exec(readFileSync('docs/formats/custom.md', 'utf8'))![1]!;

function myLog(change: (mapping: Record<string, any>) => void = () => {}): Record<string, unknown> {
  const file = parseYaml(MY_LOG) as { formats: Record<string, Record<string, any>> };
  change(file.formats['my-log']!);
  return file;
}

/** Writes the configuration as YAML and loads it as the CLI and the Action do: the error, or null. */
async function configError(file: unknown): Promise<ConfigurationError | null> {
  const dir = tempDir();
  writeFileSync(join(dir, 'agent-trace-audit.yml'), JSON.stringify(file));
  try {
    await loadConfigFile(join(dir, 'agent-trace-audit.yml'), 'agent-trace-audit.yml');
    return null;
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
}

describe('formats: a mapping is checked when the configuration is read', () => {
  it('accepts the mapping of the docs page', async () => {
    expect(await configError(myLog())).toBeNull();
  });

  it.each([
    ['a query that does not parse', (m: any) => (m.calls.tool = '$.name]'), 'agent-trace-audit.yml: formats.my-log.calls.tool: "$.name]" is not an RFC 9535 JSONPath query: '],
    ['a query without its $', (m: any) => (m.results.output = 'output'), 'agent-trace-audit.yml: formats.my-log.results.output: "output" is not an RFC 9535 JSONPath query: '],
    ['a misspelt key', (m: any) => (m.calls.arguements = m.calls.arguments), 'agent-trace-audit.yml: formats.my-log.calls.arguements: unknown key'],
    ['a condition whose query does not parse', (m: any) => (m.results.error.path = '$.status[?'), 'agent-trace-audit.yml: formats.my-log.results.error.path: "$.status[?" is not an RFC 9535 JSONPath query: '],
    ['a detect query that does not parse', (m: any) => (m.detect = '$..'), 'agent-trace-audit.yml: formats.my-log.detect: "$.." is not an RFC 9535 JSONPath query: '],
    ['an unknown filter function', (m: any) => (m.calls.select = '$[?lenght(@.name) > 0]'), "agent-trace-audit.yml: formats.my-log.calls.select: \"$[?lenght(@.name) > 0]\" is not an RFC 9535 JSONPath query: no such function 'lenght'"],
    ['a call without its tool', (m: any) => delete m.calls.tool, 'agent-trace-audit.yml: formats.my-log.calls.tool: '],
    ['a layout that is neither', (m: any) => (m.layout = 'json'), 'agent-trace-audit.yml: formats.my-log.layout: '],
    ['a format with neither calls nor results', (m: any) => (delete m.calls, delete m.results), 'agent-trace-audit.yml: formats.my-log: a format maps calls, results or both'],
  ])('%s is a config error naming the key', async (_what, change, message) => {
    const error = await configError(myLog(change));
    expect(error?.code).toBe('config');
    expect(error?.message.startsWith(message)).toBe(true);
  });

  it('refuses the regular-expression functions and a second descendant segment: their cost has no bound', async () => {
    const regex = await configError(myLog((m) => (m.calls.select = "$[?match(@.name, '(a+)+$')]")));
    expect(regex?.message).toContain('formats.my-log.calls.select: "$[?match(@.name, \'(a+)+$\')]": match() and search() are not offered');
    const deep = await configError(myLog((m) => (m.calls.select = '$..calls..items[*]')));
    expect(deep?.message).toContain('formats.my-log.calls.select: "$..calls..items[*]" has 2 descendant segments (..); a query may have at most 1');
    // `..` inside a string literal is a name, not a segment.
    expect(await configError(myLog((m) => (m.calls.select = "$..['a..b']")))).toBeNull();
  });

  it('refuses a name that is a built-in format id, or not a plain name', async () => {
    const file = myLog() as { formats: Record<string, unknown> };
    expect((await configError({ formats: { openai: file.formats['my-log'] } }))?.message).toBe("agent-trace-audit.yml: formats.openai: 'openai' is a built-in format; give the mapping another name");
    expect((await configError({ formats: { 'My Log': file.formats['my-log'] } }))?.message).toContain('formats.My Log: a format name is 1 to 64 lowercase letters');
  });

  it('exits 2 from the CLI with the key named', async () => {
    const dir = tempTree({ 'agent-trace-audit.yml': JSON.stringify(myLog((m) => (m.calls.id = '$.call id'))), 'a.jsonl': '' });
    const run = await cli(['audit', 'a.jsonl'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('formats.my-log.calls.id: "$.call id" is not an RFC 9535 JSONPath query');
  });
});

const config = (file: Record<string, unknown> = myLog()) => resolveConfig(configFileSchema().parse(file) as ConfigFile);

async function auditText(text: string, name = 'log.jsonl', file?: Record<string, unknown>, options: { inputFormat?: string } = {}) {
  const root = tempTree({ [name]: text });
  return audited([{ path: join(root, name), display: name }], config(file), options);
}

const call = (session: string, id: string, name: string, input: unknown) => ({ op: 'invoke', session, id, name, input, at: '2026-01-02T03:04:05Z' });
const result = (session: string, id: string, output: unknown, status = 'ok') => ({ op: 'return', session, id, output, status, at: 1767323046 });

describe('formats: a JSONL mapping reads each line', () => {
  it('reads calls and results into runs, with errors, orphans and skipped lines counted exactly', async () => {
    const text = jsonl(
      call('s1', 'c1', 'search', { q: 'x' }),
      result('s1', 'c1', 'found'),
      { op: 'progress', session: 's1' },
      call('s2', 'c2', 'fetch', '{"url": "https://example.com"}'),
      result('s2', 'c2', { error: 'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\nValueError: bad' }, 'error'),
      call('s2', 'c3', 'fetch', {}),
    );
    const { report, result: audit } = await auditText(text);
    expect(report.files).toEqual([{ path: 'log.jsonl', format: 'my-log', records: 5, runs: 2, skipped: [{ reason: "line is no call, result or catalog of format 'my-log'", count: 1, firstLine: 3 }], toolCalls: 3, toolResults: 2 }]);
    expect(audit.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([
      ['s1', 1, 1],
      ['s2', 2, 1],
    ]);
    const byRule = audit.findings.map((f) => [f.ruleId, f.line, f.callId]);
    expect(byRule).toEqual([
      ['catalog-missing', 1, null],
      ['catalog-missing', 4, null],
      ['stack-trace-in-result', 5, 'c2'],
      ['unstructured-error', 5, 'c2'],
      ['orphan-call', 6, 'c3'],
    ]);
  });

  it('skips a selected call without a tool name as tool-like: partial-read, never silence', async () => {
    const { report, result: audit } = await auditText(jsonl({ op: 'invoke', session: 's', id: 'c1', input: {} }));
    expect(report.files[0]?.skipped).toEqual([{ reason: 'a call without a tool name at calls.tool ($.name)', count: 1, firstLine: 1 }]);
    expect(audit.findings.map((f) => f.ruleId)).toContain('partial-read');
  });
  it('reads only own keys: a query never reaches Object.prototype, and __proto__ or constructor are plain names', async () => {
    const text = `{"op":"invoke","session":"s","id":"c1","name":"__proto__","input":{"constructor":1}}\n{"op":"return","session":"s","id":"c1","output":"ok"}\n`;
    const { result: audit } = await auditText(text);
    expect(audit.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[1, 1]]);
    const file = myLog((m) => (m.calls.tool = '$.constructor'));
    const { report } = await auditText(text, 'log.jsonl', file);
    expect(report.files[0]?.skipped).toEqual([{ reason: 'a call without a tool name at calls.tool ($.constructor)', count: 1, firstLine: 1 }]);
  });
});

describe('formats: detection is the mapping\'s own detect condition, never a guess', () => {
  it('does not claim lines its detect does not match (they stay with the format that reads them, or none)', async () => {
    const toolEvents = jsonl({ event: 'tool.start', session_id: 's', tool_name: 'search', tool_call_id: 'c1' }, { event: 'tool.end', session_id: 's', tool_name: 'search', tool_call_id: 'c1' });
    expect((await auditText(toolEvents)).report.files.map((f) => f.format)).toEqual(['tool-events']);
    const unrelated = jsonl({ a: 1 }, { a: 2 });
    expect((await auditText(unrelated)).report.files.map((f) => f.format)).toEqual(['unknown']);
  });

  it('a mapping without detect reads a file only when named', async () => {
    const file = myLog((m) => delete m.detect);
    const text = jsonl(call('s', 'c1', 'search', {}), result('s', 'c1', 'ok'));
    expect((await auditText(text, 'log.jsonl', file)).report.files.map((f) => f.format)).toEqual(['unknown']);
    const named = await auditText(text, 'log.jsonl', file, { inputFormat: 'my-log' });
    expect(named.result.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[1, 1]]);
  });

  it('outranks a built-in format when it holds (the user named the shape)', async () => {
    const file = myLog((m) => {
      m.detect = { path: '$.event', equals: 'tool.start' };
      m.calls.when = { path: '$.event', equals: 'tool.start' };
      m.calls.tool = '$.tool_name';
      m.calls.id = '$.call_id';
      m.results.id = '$.call_id';
      m.results.when = { path: '$.event', equals: 'tool.end' };
      m['run-id'] = '$.session_id';
    });
    const text = jsonl({ event: 'tool.start', session_id: 's', tool_name: 'search', call_id: 'c1' }, { event: 'tool.end', session_id: 's', call_id: 'c1' });
    const { report, result: audit } = await auditText(text, 'log.jsonl', file);
    expect(report.files.map((f) => f.format)).toEqual(['my-log']);
    expect(audit.findings.filter((f) => f.ruleId === 'ingest-note')).toEqual([]);
  });
});

describe('formats: the cost of a mapping is bounded by the limits', () => {
  it('a document past limits.max-document-bytes is one malformed-record naming the limit, not read', async () => {
    const file = myLog((m) => {
      m.layout = 'document';
      m.calls.select = '$.log[?@.op == "invoke"]';
      m.results.select = '$.log[?@.op == "return"]';
      delete m.calls.when;
      delete m.results.when;
      delete m['run-id'];
      m.detect = '$.log';
    });
    (file as { limits?: unknown }).limits = { 'max-document-bytes': 64 };
    const text = JSON.stringify({ log: [call('s', 'c1', 'search', { q: 'a long enough argument' }), result('s', 'c1', 'ok')] }, null, 1);
    const { report, result: audit } = await auditText(text, 'doc.json', file);
    expect(report.files.map((f) => f.format)).toEqual(['my-log']);
    // The document was not read: its malformed-record says so, and no note claims it holds no tool calls (it holds one).
    expect(audit.findings.map((f) => [f.ruleId, f.line])).toEqual([['malformed-record', 1]]);
    expect(audit.findings[0]?.message).toContain('max-document-bytes');
    // Within the limit, the same document is read, each record at the line its item begins.
    delete (file as { limits?: unknown }).limits;
    const read = await auditText(text, 'doc.json', file);
    expect(read.result.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[1, 1]]);
  });

  it('the configured formats are plain data: a worker thread compiles its own copy', () => {
    const resolved = config();
    const copy = structuredClone(resolved.formats);
    expect(formatsFor(copy).map((f) => f.id).slice(0, 2)).toEqual(['my-log', 'otlp-json']);
    expect(formatsFor(copy)).toBe(formatsFor(copy));
  });
});

describe('formats: the Action reads a configured format by its input-format input', () => {
  it('reads the named mapping, and refuses a name that is neither built in nor configured', async () => {
    const workspace = tempTree({
      'agent-trace-audit.yml': JSON.stringify(myLog((m) => delete m.detect)),
      'traces/log.jsonl': jsonl(call('s', 'c1', 'search', {}), result('s', 'c1', 'ok'), call('s', 'c2', 'search', {})),
    });
    const ctx = { eventName: 'push', owner: 'o', repo: 'r', runId: 1, sha: 'x', serverUrl: '', apiUrl: '', workspace, tempDir: tempDir(), workflowFile: undefined, pullRequest: undefined, workflowRun: undefined } as never;
    const logger = { info() {}, warning() {}, error() {}, debug() {} } as never;
    const inputs = (values: Record<string, string>) => readInputs((name) => ({ traces: 'traces/*.jsonl', upload: 'false', ...values })[name] ?? '');
    const named = await sourceReport(inputs({ 'input-format': 'my-log' }), ctx, logger);
    expect(named.report.files.map((f) => [f.path, f.format])).toEqual([['traces/log.jsonl', 'my-log']]);
    expect(named.report.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[2, 1]]);
    const detected = await sourceReport(inputs({}), ctx, logger);
    expect(detected.report.files.map((f) => f.format)).toEqual(['unknown']);
    await expect(sourceReport(inputs({ 'input-format': 'mylog' }), ctx, logger)).rejects.toThrow(/^input input-format must be one of my-log, otlp-json, .*, not "mylog"$/);
  });
});
