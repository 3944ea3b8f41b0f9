import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { configFileSchema, resolveConfig, type ConfigFile } from '../../../src/config/config.js';
import { cli } from '../../cli/run-cli.js';
import { audited, tempDir } from '../../helpers.js';
import { corpusCounts, corpusFile, describeCorpus } from '../../public-corpus.js';
import { shownMismatch } from '../../doc-examples/example-blocks.js';

/**
 * The YAML, string-encoded and HTTP-recording examples of docs/formats/custom.md, read from
 * the page itself, on the public files they describe (formats no built-in reader knows). The
 * expected counts are the manifest's, counted with python3 independently of the tool.
 */
const PAGE = readFileSync('docs/formats/custom.md', 'utf8');

function pageMapping(name: string): string {
  const block = [...PAGE.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((text) => text.includes(`\n  ${name}:\n`));
  if (block === undefined) throw new Error(`docs/formats/custom.md has no yaml block for ${name}`);
  return block;
}

function configOf(name: string, change: (mapping: any) => void = () => {}): ConfigFile {
  const formats = (parseYaml(pageMapping(name)) as { formats: Record<string, unknown> }).formats;
  change(formats[name]);
  return configFileSchema().parse({ formats }) as ConfigFile;
}

const GO_VCR = 'go-vcr/fantasy-openai-chat-multi-tool.yaml';
const VERIFIERS = 'verifiers/math-python-gpt-5-nano-results.jsonl';
const HAR = 'har/openllmetry-langchain-agent.har';
const input = (file: string) => ({ path: corpusFile(file), display: file });

describeCorpus('formats: a YAML format with JSON inside (go-vcr cassette), from docs/formats/custom.md', [GO_VCR], () => {
  it('the built-in go-vcr reader reads it; the mapping reads the same: 2 calls, 2 results by id, a catalog of 2 tools, nothing found', async () => {
    expect(corpusCounts(GO_VCR)).toEqual({ llm: 2, calls: 2, results: 2, orphans: 0, tools: 2 });
    const bare = await audited([input(GO_VCR)], resolveConfig({}));
    expect(bare.report.files.map((f) => [f.format, f.toolCalls, f.toolResults])).toEqual([['openai', 2, 2]]);
    const { report, result } = await audited([input(GO_VCR)], resolveConfig(configOf('go-vcr-chat')));
    expect(report.files).toEqual([{ path: GO_VCR, format: 'go-vcr-chat', records: 5, runs: 1, skipped: [], toolCalls: 2, toolResults: 2 }]);
    expect(result.findings).toEqual([]);
    expect(result.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[2, 2]]);
  });
});

describeCorpus('formats: string-encoded tool calls (verifiers results.jsonl), from docs/formats/custom.md', [VERIFIERS], () => {
  // The one result python3 finds holding a Python traceback (line 15) is the unstructured-error and the stack-trace-in-result.
  it('reads 16 calls and 16 results in 15 runs, one per line (5 ids repeated 3 times never merge)', async () => {
    expect(corpusCounts(VERIFIERS)).toEqual({ lines: 15, ids: 5, calls: 16, results: 16, orphans: 0 });
    const { report, result } = await audited([input(VERIFIERS)], resolveConfig(configOf('verifiers-eval')));
    expect(report.files).toEqual([{ path: VERIFIERS, format: 'verifiers-eval', records: 32, runs: 15, skipped: [], toolCalls: 16, toolResults: 16 }]);
    expect(result.runs).toHaveLength(15);
    expect(result.runs.map((r) => r.runId)).toEqual(Array.from({ length: 15 }, (_, i) => `${Math.floor(i / 3)}#${i + 1}`));
    const counted = new Map<string, number>();
    for (const f of result.findings) counted.set(f.ruleId, (counted.get(f.ruleId) ?? 0) + 1);
    expect(Object.fromEntries(counted)).toEqual({ 'ingest-note': 15, 'catalog-missing': 15, 'unstructured-error': 1, 'stack-trace-in-result': 1 });
  });

  it('by id (without runs: per-record) the three rollouts of each task merge into 5 runs', async () => {
    const { report } = await audited([input(VERIFIERS)], resolveConfig(configOf('verifiers-eval', (m) => delete m.runs)));
    expect(report.files[0]?.runs).toBe(5);
  });

  it('without | json every call is skipped as one without a tool name; tool: "$" is refused as JSON text', async () => {
    const noJson = await audited([input(VERIFIERS)], resolveConfig(configOf('verifiers-eval', (m) => (m.calls.select = '$.completion[*].tool_calls[*]'))));
    expect(noJson.report.files[0]).toMatchObject({ toolCalls: 0, toolShaped: 16 });
    const whole = await audited([input(VERIFIERS)], resolveConfig(configOf('verifiers-eval', (m) => (m.calls = { select: '$.completion[*].tool_calls[*]', tool: '$' }))));
    expect(whole.report.files[0]?.skipped).toContainEqual({ reason: 'a call whose calls.tool ($) is JSON text, not a tool name', count: 16, firstLine: 1 });
    expect(whole.report.files[0]?.toolCalls).toBe(0);
  });

  it('a results.select that selects nothing is partial-read naming the key, and the verdict says partly read (not 16 orphans alone)', async () => {
    const config = configOf('verifiers-eval', (m) => (m.results.select = "$.completion[?@.role == 'toolResult']"));
    const { report, result } = await audited([input(VERIFIERS)], resolveConfig(config));
    const partial = result.findings.filter((f) => f.ruleId === 'partial-read');
    expect(partial.map((f) => f.message)).toEqual([
      "the mapping formats.verifiers-eval missed part of the file: results.select ($.completion[?@.role == 'toolResult']) selected nothing in 15 records, while 16 calls were read",
    ]);
    expect(report.files[0]?.toolShaped).toBe(1);
    const dir = tempDir();
    writeFileSync(join(dir, 'agent-trace-audit.yml'), JSON.stringify(config));
    const run = await cli(['audit', corpusFile(VERIFIERS), '--config', join(dir, 'agent-trace-audit.yml'), '--fail-on', 'never'], dir);
    expect(run.stdout.split('\n')[0]).toMatch(/^⚠️ partly read \(1 of 1 file\)/);
  });
});

describeCorpus('formats: an HTTP recording (HAR), from docs/formats/custom.md', [HAR], () => {
  it('reads the last request body as JSON: 1 call, its result, the catalog of 1 tool, nothing found', async () => {
    expect(corpusCounts(HAR)).toEqual({ calls: 1, results: 1, orphans: 0, tools: 1 });
    const { report, result } = await audited([input(HAR)], resolveConfig(configOf('har-chat')));
    expect(report.files).toEqual([{ path: HAR, format: 'har-chat', records: 3, runs: 1, skipped: [], toolCalls: 1, toolResults: 1 }]);
    expect(result.findings).toEqual([]);
  });
});

describeCorpus('formats try: what each worked mapping extracts, from the command line', [GO_VCR, VERIFIERS, HAR], () => {
  const tryOn = async (name: string, file: string, change?: (m: any) => void) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'agent-trace-audit.yml'), change ? JSON.stringify(configOf(name, change)) : pageMapping(name));
    return cli(['formats', 'try', corpusFile(file), '--config', join(dir, 'agent-trace-audit.yml'), '--input-format', name], dir);
  };

  it('go-vcr: the calls with their ids, tools and arguments, the results, no warning (exit 0)', async () => {
    const run = await tryOn('go-vcr-chat', GO_VCR);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[1]).toBe('calls: 2, results: 2, runs: 1, catalog tools: 2');
    expect(lines[2]).toBe('unmatched by id: 0 call(s) without a result, 0 result(s) without a call');
    expect(run.stdout).toContain('id call_fifE5poZ3dg3JDUKGFi48NGq  tool add  arguments {"a":2,"b":3}');
    expect(run.stdout).toContain('mapping warnings: none');
  });

  it('verifiers: 16 and 16 in 15 runs; the misspelt result role is a warning naming the key (exit 1)', async () => {
    const good = await tryOn('verifiers-eval', VERIFIERS);
    expect(good.code).toBe(0);
    expect(good.stdout.split('\n').slice(1, 3)).toEqual(['calls: 16, results: 16, runs: 15, catalog tools: 0', 'unmatched by id: not checked (the calls carry no ids: paired by order and tool when audited)']);
    expect(good.stdout).toContain('  line 1  run 0#1  id -  tool python  arguments {"code":');
    const bad = await tryOn('verifiers-eval', VERIFIERS, (m) => (m.results.select = "$.completion[?@.role == 'toolResult']"));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("partial-read: the mapping formats.verifiers-eval missed part of the file: results.select ($.completion[?@.role == 'toolResult']) selected nothing in 15 records, while 16 calls were read");
  });

  it('the console block of the page prints what the page shows (the verifiers mapping in agent-trace-audit.yml)', async () => {
    const block = /## Try a mapping[\s\S]*?```console corpus\n([\s\S]*?)```/.exec(PAGE)![1]!.trimEnd().split('\n');
    const [command, ...shown] = block;
    const words = command!.replace(/^\$ agent-trace-audit /, '').split(' ');
    const dir = tempDir();
    writeFileSync(join(dir, 'agent-trace-audit.yml'), pageMapping('verifiers-eval'));
    copyFileSync(corpusFile(VERIFIERS), join(dir, words[2]!));
    const run = await cli(words, dir);
    expect(run.code).toBe(0);
    expect(shownMismatch(shown, run.stdout.trimEnd().split('\n'))).toBeNull();
  });

  it('HAR: 1 call and its result (exit 0)', async () => {
    const run = await tryOn('har-chat', HAR);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[1]).toBe('calls: 1, results: 1, runs: 1, catalog tools: 1');
    expect(run.stdout).toContain('tool calculator  arguments {"input":"5 * (10 + 2)"}');
  });
});
