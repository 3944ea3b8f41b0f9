import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { configFileSchema, resolveConfig, type ConfigFile } from '../../../src/config/config.js';
import { cli } from '../../cli/run-cli.js';
import { audited, tempDir } from '../../helpers.js';
import { corpusCounts, corpusFile, describeCorpus } from '../../public-corpus.js';

/**
 * The two worked examples of docs/formats/custom.md, read from the page itself (so the
 * page's mappings are the ones tested), on the public files they describe. The
 * expected counts are the manifest's (counted with python3, independently of the tool).
 * Both formats are now also read natively (`letta`, `any-agent`): the tests check that a
 * mapping whose detect holds, or that --input-format names, outranks the built-in reader,
 * that the built-in reader reads what the mapping leaves, and that both give the same pairs.
 */
const PAGE = readFileSync('docs/formats/custom.md', 'utf8');

function pageMapping(name: string): string {
  const block = [...PAGE.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((text) => text.includes(`\n  ${name}:\n`));
  if (block === undefined) throw new Error(`docs/formats/custom.md has no yaml block for ${name}`);
  return block;
}

function configOf(...names: string[]): ConfigFile {
  const formats = Object.assign({}, ...names.map((name) => (parseYaml(pageMapping(name)) as { formats: object }).formats)) as object;
  return configFileSchema().parse({ formats }) as ConfigFile;
}

const LETTA = 'letta/memgpt-agent-with-convo.af';
const LETTA_LOOP = 'letta/loop.af';
const GOOGLE = 'any-agent/GOOGLE_trace.json';
const LANGCHAIN = 'any-agent/LANGCHAIN_trace.json';

async function auditCorpus(config: ConfigFile, files: string[]) {
  return audited(files.map((file) => ({ path: corpusFile(file), display: file })), resolveConfig(config));
}

const ruleIds = (findings: ReadonlyArray<{ ruleId: string }>) => findings.map((f) => f.ruleId).sort();

describeCorpus('formats: the Letta agent file mapping of docs/formats/custom.md', [LETTA, LETTA_LOOP], () => {
  it('reads memgpt_agent_with_convo.af: 28 calls, 28 results, no orphan, its catalog of 6 tools', async () => {
    expect(corpusCounts(LETTA)).toEqual({ calls: 28, results: 28, orphans: 0 });
    const { report, result } = await auditCorpus(configOf('letta-agent-file'), [LETTA]);
    expect(report.files).toEqual([{ path: LETTA, format: 'letta-agent-file', records: 57, runs: 1, skipped: [], toolCalls: 28, toolResults: 28 }]);
    expect(result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([['memgpt_agent', 28, 28]]);
    expect(ruleIds(result.findings)).toEqual(['invalid-arguments', 'unused-tool', 'unused-tool', 'unused-tool']);
    expect(result.findings.find((f) => f.ruleId === 'invalid-arguments')?.message).toContain("'send_message'");
    const native = await auditCorpus({}, [LETTA]);
    expect(native.report.files.map((f) => f.format)).toEqual(['letta']);
    expect(native.result.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([['memgpt_agent', 28, 28]]);
    expect(ruleIds(native.result.findings)).toEqual(ruleIds(result.findings));
  });

  it('does not claim loop.af, whose detect condition ($.agent_type) does not hold: the built-in letta reader reads it', async () => {
    expect(corpusCounts(LETTA_LOOP)).toEqual({ calls: 1, results: 1, orphans: 0 });
    const { report, result } = await auditCorpus(configOf('letta-agent-file'), [LETTA_LOOP]);
    expect(report.files.map((f) => f.format)).toEqual(['letta']);
    expect(result.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[1, 1]]);
    expect(ruleIds(result.findings).filter((id) => ['unknown-format', 'orphan-call', 'malformed-record'].includes(id))).toEqual([]);
  });

  it('is what --input-format names on the command line, from the configuration file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'agent-trace-audit.yml'), pageMapping('letta-agent-file'));
    const run = await cli(['audit', corpusFile(LETTA), '--input-format', 'letta-agent-file', '--format', 'json', '--fail-on', 'never', '--config', join(dir, 'agent-trace-audit.yml')], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { files: Array<{ format: string }>; runs: Array<{ toolCalls: number; toolResults: number }> };
    expect(json.files.map((f) => f.format)).toEqual(['letta-agent-file']);
    expect(json.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[28, 28]]);
    // The built-in reader, named, reads the same file in spite of the mapping: the same pairs.
    const builtIn = await cli(['audit', corpusFile(LETTA), '--input-format', 'letta', '--format', 'json', '--fail-on', 'never', '--config', join(dir, 'agent-trace-audit.yml')], dir);
    expect(builtIn.code).toBe(0);
    const nativeJson = JSON.parse(builtIn.stdout) as typeof json;
    expect(nativeJson.files.map((f) => f.format)).toEqual(['letta']);
    expect(nativeJson.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[28, 28]]);
    // A name that is neither a built-in format nor a mapping is a usage error naming the mapping.
    const wrong = await cli(['audit', corpusFile(LETTA), '--input-format', 'letta-agent-fil', '--config', join(dir, 'agent-trace-audit.yml')], dir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('letta-agent-file');
  });
});

describeCorpus('formats: the any-agent span dump mapping of docs/formats/custom.md', [GOOGLE, LANGCHAIN], () => {
  it('reads GOOGLE_trace.json (3 calls, 3 results) and LANGCHAIN_trace.json (2 and 2, no call ids), no orphan', async () => {
    expect(corpusCounts(GOOGLE)).toEqual({ calls: 3, results: 3, orphans: 0 });
    expect(corpusCounts(LANGCHAIN)).toEqual({ calls: 2, results: 2, orphans: 0 });
    const { report, result } = await auditCorpus(configOf('any-agent-trace', 'letta-agent-file'), [GOOGLE, LANGCHAIN]);
    expect(report.files.map((f) => [f.path, f.format, f.records, f.runs, f.skipped?.length ?? 0])).toEqual([
      [GOOGLE, 'any-agent-trace', 6, 1, 0],
      [LANGCHAIN, 'any-agent-trace', 4, 1, 0],
    ]);
    expect(result.runs.map((r) => [r.file, r.toolCalls, r.toolResults])).toEqual([
      [GOOGLE, 3, 3],
      [LANGCHAIN, 2, 2],
    ]);
    expect(result.findings.map((f) => [f.file, f.ruleId])).toEqual([
      [GOOGLE, 'catalog-missing'],
      [LANGCHAIN, 'catalog-missing'],
      [LANGCHAIN, 'ingest-note'],
    ]);
    const native = await auditCorpus({}, [GOOGLE, LANGCHAIN]);
    expect(native.report.files.map((f) => f.format)).toEqual(['any-agent', 'any-agent']);
    expect(native.result.runs.map((r) => [r.file, r.toolCalls, r.toolResults])).toEqual([
      [GOOGLE, 3, 3],
      [LANGCHAIN, 2, 2],
    ]);
  });
});

const CODEX = 'codex/agent-history-escalation.jsonl';

/** A JSONL mapping written by hand for a Codex rollout, which the tool also reads natively: the same pairs. */
const CODEX_BY_HAND: ConfigFile = configFileSchema().parse({
  formats: {
    'codex-by-hand': {
      layout: 'jsonl',
      detect: { path: '$.type', equals: 'session_meta' },
      calls: { select: '$.payload', when: { path: '$.type', equals: 'function_call' }, id: '$.call_id', tool: '$.name', arguments: '$.arguments' },
      results: { select: '$.payload', when: { path: '$.type', equals: 'function_call_output' }, id: '$.call_id', output: '$.output' },
    },
  },
}) as ConfigFile;

describeCorpus('formats: a JSONL mapping on a public Codex rollout', [CODEX], () => {
  // Counted with python3: response_item lines whose payload.type is function_call (4) or
  // function_call_output (2), paired by call_id: 2 calls unanswered (the turn was aborted); 21 lines.
  it('reads agent-history-escalation.jsonl line by line: 4 calls, 2 results, 2 orphans, 15 other lines skipped', async () => {
    const { report, result } = await auditCorpus(CODEX_BY_HAND, [CODEX]);
    expect(report.files.map((f) => [f.format, f.records, f.runs])).toEqual([['codex-by-hand', 6, 1]]);
    expect(report.files[0]?.skipped).toEqual([{ reason: "line is no call, result or catalog of format 'codex-by-hand'", count: 15, firstLine: 1 }]);
    expect(result.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[4, 2]]);
    expect(result.findings.filter((f) => f.ruleId === 'orphan-call')).toHaveLength(2);
    const native = await auditCorpus({}, [CODEX]);
    expect(native.report.files.map((f) => f.format)).toEqual(['codex-rollout']);
    expect(native.result.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[4, 2]]);
  });
});
