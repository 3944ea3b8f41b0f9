import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFileSchema, resolveConfig, type ConfigFile } from '../../../src/config/config.js';
import { compileSelector } from '../../../src/ingest/custom/query.js';
import { cli } from '../../cli/run-cli.js';
import { audited, jsonl, tempTree } from '../../helpers.js';

/**
 * The mapping's steps (`| json`, `parent`, `record`), `layout: yaml`, `runs: per-record`
 * and its own checks, each on a small trace written here whose counts are plain to see.
 */
function config(name: string, mapping: Record<string, unknown>): ConfigFile {
  return configFileSchema().parse({ formats: { [name]: mapping } }) as ConfigFile;
}

async function auditText(text: string, file: string, formats: ConfigFile, inputFormat?: string) {
  const root = tempTree({ [file]: text });
  return audited([{ path: join(root, file), display: file }], resolveConfig(formats), inputFormat ? { inputFormat } : {});
}

const ids = (findings: ReadonlyArray<{ ruleId: string }>) => findings.map((f) => f.ruleId).sort();

describe('formats: query steps', () => {
  it('compiles steps joined by |, leaves || and quoted | alone, and names a bad step', () => {
    const ok = compileSelector("$.a[?@.x == 'p|q' || @.y] | json | $.b | parent");
    expect(typeof ok === 'string' ? ok : ok.steps.map((s) => s.kind)).toEqual(['path', 'json', 'path', 'parent']);
    expect(compileSelector('$.a | record')).toBe('"$.a | record": "record" can only be the first step (the record the item came from)');
    expect(compileSelector('$.a | jsno')).toMatch(/^"jsno" is not an RFC 9535 JSONPath query: .* \(each step between \| is a JSONPath query, or json, parent or record\)$/);
  });

  it('| json parses string-encoded calls and an HTTP body, and the query goes on inside', async () => {
    const line = {
      task: 't1',
      calls: [JSON.stringify({ id: 'c1', function: { name: 'search', arguments: '{"q":"x"}' } })],
      http: { body: JSON.stringify({ messages: [{ role: 'tool', tool_call_id: 'c1', content: 'found' }] }) },
    };
    const formats = config('enc', {
      layout: 'jsonl',
      'run-id': '$.task',
      calls: { select: '$.calls[*] | json', id: '$.id', tool: '$.function.name', arguments: '$.function.arguments' },
      results: { select: "$.http.body | json | $.messages[?@.role == 'tool']", id: '$.tool_call_id', output: '$.content' },
    });
    const { report, result } = await auditText(jsonl(line), 'e.jsonl', formats, 'enc');
    expect(report.files[0]).toMatchObject({ toolCalls: 1, toolResults: 1, skipped: [] });
    expect(ids(result.findings)).toEqual(['catalog-missing']);
  });

  it('parent reads a field beside the list; record reads the line from an item deep inside it', async () => {
    const line = { session: 's9', steps: [{ tool: 'ls', actions: [{ id: 'a1', args: { p: '/' } }, { id: 'a2', args: { p: '/tmp' } }] }] };
    const formats = config('steps', {
      layout: 'jsonl',
      calls: { select: '$.steps[*].actions[*]', id: '$.id', tool: 'parent | $.tool', arguments: '$.args', 'run-id': 'record | $.session' },
    });
    const { result } = await auditText(jsonl(line), 's.jsonl', formats, 'steps');
    expect(result.runs.map((r) => [r.runId, r.toolCalls])).toEqual([['s9', 2]]);
  });

  it('a tool name that is JSON text, several lines or too long is a mapping warning, not a tool', async () => {
    const lines = [{ c: '{"name":"x"}' }, { c: 'two\nlines' }, { c: 'n'.repeat(129) }, { c: 'ok_tool' }];
    const formats = config('names', { layout: 'jsonl', calls: { select: '$', tool: '$.c' } });
    const { report, result } = await auditText(jsonl(...lines), 'n.jsonl', formats, 'names');
    expect(report.files[0]?.toolCalls).toBe(1);
    expect(report.files[0]?.skipped).toEqual([
      { reason: 'a call whose calls.tool ($.c) is JSON text, not a tool name', count: 1, firstLine: 1 },
      { reason: 'a call whose calls.tool ($.c) is a text of 129 characters, not a tool name (at most 128)', count: 1, firstLine: 3 },
      { reason: 'a call whose calls.tool ($.c) is a text of several lines, not a tool name', count: 1, firstLine: 2 },
    ]);
    expect(ids(result.findings)).toContain('partial-read');
  });

  it('JSON text a line parses counts toward limits.max-line-bytes: past it the line is skipped with the reason', async () => {
    // Text inside text: the line holds 'outer' (JSON text) which holds 'inner' (JSON text): parsed, they pass the line's own size.
    const inner = JSON.stringify({ name: 't', pad: 'x'.repeat(300) });
    const lines = [{ a: JSON.stringify({ inner }) }];
    expect(jsonl(...lines).length).toBeLessThan(600);
    const formats = configFileSchema().parse({
      limits: { 'max-line-bytes': 600 },
      formats: { big: { layout: 'jsonl', calls: { select: '$.a | json | $.inner | json', tool: '$.name' } } },
    }) as ConfigFile;
    const { report } = await auditText(jsonl(...lines), 'b.jsonl', formats, 'big');
    expect(report.files[0]?.skipped).toEqual([
      { reason: "the format's queries could not be run on it (JSON text past the limit of 600 bytes (limits.max-line-bytes))", count: 1, firstLine: 1 },
    ]);
  });
});

describe('formats: runs per record', () => {
  const lines = [
    { id: 'task-1', calls: [{ n: 'a' }] },
    { id: 'task-1', calls: [{ n: 'a' }] },
    { id: 'task-2', calls: [{ n: 'b' }] },
  ];
  const mapping = (runs?: string) => config('rl', { layout: 'jsonl', 'run-id': '$.id', ...(runs ? { runs } : {}), calls: { select: '$.calls[*]', tool: '$.n' } });

  it('by id, two lines with one id are one run; per-record, each line is its own run named id#line', async () => {
    const byId = await auditText(jsonl(...lines), 'r.jsonl', mapping(), 'rl');
    expect(byId.result.runs.map((r) => [r.runId, r.toolCalls])).toEqual([['task-1', 2], ['task-2', 1]]);
    const perRecord = await auditText(jsonl(...lines), 'r.jsonl', mapping('per-record'), 'rl');
    expect(perRecord.result.runs.map((r) => [r.runId, r.toolCalls])).toEqual([['task-1#1', 1], ['task-1#2', 1], ['task-2#3', 1]]);
  });
});

describe('formats: layout yaml', () => {
  const mapping = (detect = true) =>
    config('plan-yaml', {
      layout: 'yaml',
      ...(detect ? { detect: '$.plan_steps' } : {}),
      'run-id': '$.session',
      calls: { select: '$.plan_steps[*].call', id: '$.id', tool: '$.tool', arguments: '$.args' },
      results: { select: '$.plan_steps[*].observation', id: '$.call_id', output: '$.text' },
    });
  const stream = [
    'session: s1',
    'plan_steps:',
    '  - call: {id: c1, tool: search, args: {q: cats}}',
    '    observation: {call_id: c1, text: found}',
    '---',
    'session: s2',
    'plan_steps:',
    '  - call: &c {id: c2, tool: open, args: {url: x}}',
    '  - call: *c',
    '',
  ].join('\n');

  it('reads a --- stream, each document a record, detected by its own condition; an alias reads as a copy', async () => {
    const { report, result } = await auditText(stream, 'plan.yaml', mapping());
    expect(report.files[0]).toMatchObject({ format: 'plan-yaml', toolCalls: 3, toolResults: 1 });
    expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([['s1', 1, 1], ['s2', 2, 0]]);
    expect(ids(result.findings)).toEqual(['catalog-missing', 'catalog-missing', 'duplicate-call-id', 'orphan-call']);
  });

  it('aliases that expand past limits.max-document-bytes are refused before anything is read; depth is capped', async () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'plan_steps: [*c, *c, *c, *c, *c]', ''].join('\n');
    // Each alias counts what it stands for: b's 10 *a of 10 bytes (100), c's 10 *b of 100 (1,000), plan_steps' 5 *c of 1,000 (5,000).
    const limited = configFileSchema().parse({ limits: { 'max-document-bytes': 2000 }, formats: (mapping() as { formats: object }).formats }) as ConfigFile;
    const { result } = await auditText(bomb, 'bomb.yaml', limited, 'plan-yaml');
    expect(result.findings.map((f) => [f.ruleId, f.message])).toContainEqual(['malformed-record', 'the YAML file not read: its aliases expand it by 6100 bytes, past the limit of 2000 bytes (limits.max-document-bytes)']);
    const deep = `plan_steps: ${'['.repeat(300)}${']'.repeat(300)}\n`;
    const deepRead = await auditText(deep, 'deep.yaml', mapping(), 'plan-yaml');
    expect(deepRead.result.findings.map((f) => [f.ruleId, f.message])).toContainEqual(['malformed-record', 'the YAML file not read: nesting deeper than 256 levels']);
  });

  it('a YAML file under a JSON layout says that mappings read YAML with layout: yaml', async () => {
    const jsonMapping = config('plan-json', { layout: 'document', calls: { select: '$.plan_steps[*].call', tool: '$.tool' } });
    const { result } = await auditText(stream, 'plan.yaml', jsonMapping, 'plan-json');
    expect(result.findings.find((f) => f.ruleId === 'malformed-record')?.message).toMatch(/\(if the file is YAML, a mapping reads it with layout: yaml\)$/);
  });
});

describe('formats: a mapping that checks itself', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: i % 2 === 0 ? 'call' : 'result', id: `c${Math.floor(i / 2)}`, tool: 't', ref: `r${i}` }));

  it('results whose ids match no call id: partial-read naming both keys', async () => {
    const formats = config('ids', {
      layout: 'jsonl',
      calls: { select: '$', when: { path: '$.kind', equals: 'call' }, id: '$.id', tool: '$.tool' },
      results: { select: '$', when: { path: '$.kind', equals: 'result' }, id: '$.ref', tool: '$.tool' },
    });
    const { report, result } = await auditText(jsonl(...lines(4)), 'i.jsonl', formats, 'ids');
    expect(result.findings.filter((f) => f.ruleId === 'partial-read').map((f) => f.message)).toEqual([
      "the mapping formats.ids missed part of the file: no result's id (results.id $.ref) is a call's id (calls.id $.id): all 2 results with an id are unmatched",
    ]);
    expect(report.files[0]?.toolShaped).toBe(1);
  });

  it('calls.when that holds for none of the selected nodes while results were read', async () => {
    const formats = config('when', {
      layout: 'jsonl',
      calls: { select: '$', when: { path: '$.kind', equals: 'invoke' }, id: '$.id', tool: '$.tool' },
      results: { select: '$', when: { path: '$.kind', equals: 'result' }, id: '$.id', tool: '$.tool' },
    });
    const { result } = await auditText(jsonl(...lines(4)), 'w.jsonl', formats, 'when');
    expect(result.findings.filter((f) => f.ruleId === 'partial-read').map((f) => f.message)).toEqual([
      'the mapping formats.when missed part of the file: calls.when held for none of the 4 nodes calls.select selected, while 2 results were read',
    ]);
  });

  it('fewer than one record in 10 giving an item (of at least 20)', async () => {
    const text = jsonl({ kind: 'call', id: 'c0', tool: 't' }, { kind: 'result', id: 'c0', tool: 't' }, ...Array.from({ length: 28 }, (_, i) => ({ kind: 'log', n: i })));
    const formats = config('sparse', {
      layout: 'jsonl',
      calls: { select: '$', when: { path: '$.kind', equals: 'call' }, id: '$.id', tool: '$.tool' },
      results: { select: '$', when: { path: '$.kind', equals: 'result' }, id: '$.id', tool: '$.tool' },
    });
    const { result } = await auditText(text, 'p.jsonl', formats, 'sparse');
    expect(result.findings.filter((f) => f.ruleId === 'partial-read').map((f) => f.message)).toEqual([
      "the mapping formats.sparse missed part of the file: only 2 of 30 records gave a call or result (calls.select $, results.select $)",
    ]);
  });
});

describe('formats try: usage', () => {
  it('names the nearest subcommand and the nearest mapping, and needs a configured mapping', async () => {
    const root = tempTree({ 'a.jsonl': jsonl({ op: 'x' }), 'agent-trace-audit.yml': 'formats:\n  my-log:\n    layout: jsonl\n    calls: {select: "$", tool: "$.op"}\n' });
    expect((await cli(['formats', 'tyr', 'a.jsonl'], root)).stderr).toContain('unknown formats subcommand "tyr": did you mean try? (subcommands: try)');
    expect((await cli(['formats', 'try', 'a.jsonl', '--input-format', 'my-lo'], root)).stderr).toContain('not "my-lo" (did you mean my-log?)');
    const ok = await cli(['formats', 'try', 'a.jsonl'], root);
    expect([ok.code, ok.stdout.split('\n').slice(0, 2)]).toEqual([0, ['a.jsonl read with formats.my-log (layout: jsonl)', 'calls: 1, results: 0, runs: 1, catalog tools: 0']]);
    const none = tempTree({ 'a.jsonl': jsonl({ op: 'x' }) });
    const missing = await cli(['formats', 'try', 'a.jsonl'], none);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('the configuration file has no formats: section')]);
  });
});
