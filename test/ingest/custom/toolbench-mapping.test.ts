import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { configFileSchema, resolveConfig, type ConfigFile } from '../../../src/config/config.js';
import { cli } from '../../cli/run-cli.js';
import { audited, tempDir } from '../../helpers.js';
import { corpusCounts, corpusFile, describeCorpus } from '../../public-corpus.js';

/**
 * The third worked example of docs/formats/custom.md, read from the page itself: a public
 * ToolBench answer, a format no built-in reader knows. The expected counts are the
 * manifest's (counted with python3 from answer_generation.train_messages, independently
 * of the tool).
 */
const PAGE = readFileSync('docs/formats/custom.md', 'utf8');
const NAME = 'toolbench-answer';
const FILE = 'toolbench/82217_ChatGPT_CoT@1.json';
/** ToolLLaMA's depth-first answer to the same query: another layout of the search, the same answer_generation. */
const DFS = 'toolbench/82217_DFS_woFilter_w2.json';
const input = (file: string) => ({ path: corpusFile(file), display: file });

function pageMapping(): string {
  const block = [...PAGE.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((text) => text.includes(`\n  ${NAME}:\n`));
  if (block === undefined) throw new Error(`docs/formats/custom.md has no yaml block for ${NAME}`);
  return block;
}

function config(): ConfigFile {
  return configFileSchema().parse({ formats: (parseYaml(pageMapping()) as { formats: object }).formats }) as ConfigFile;
}

const ruleIds = (findings: ReadonlyArray<{ ruleId: string }>) => findings.map((f) => f.ruleId).sort();

describeCorpus('formats: the ToolBench answer mapping of docs/formats/custom.md, on a format the tool does not read', [FILE, DFS], () => {
  it('without the mapping both files are unknown-format: no built-in reader claims them', async () => {
    const { report, result } = await audited([input(FILE), input(DFS)], resolveConfig({}));
    expect(report.files.map((f) => [f.path, f.format, f.records, f.runs])).toEqual([
      [FILE, 'unknown', 0, 0],
      [DFS, 'unknown', 0, 0],
    ]);
    expect(ruleIds(result.findings)).toEqual(['unknown-format', 'unknown-format']);
  });

  it('with it, detected: 3 calls, 3 results, no orphan, the catalog of 3 tools, only the note on pairing by order', async () => {
    expect(corpusCounts(FILE)).toEqual({ calls: 3, results: 3, orphans: 0 });
    const { report, result } = await audited([input(FILE)], resolveConfig(config()));
    expect(report.files).toEqual([{ path: FILE, format: NAME, records: 7, runs: 1, skipped: [], toolCalls: 3, toolResults: 3 }]);
    expect(result.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[3, 3]]);
    expect(result.findings.map((f) => [f.ruleId, f.severity])).toEqual([['ingest-note', 'note']]);
    expect(result.findings[0]?.message).toContain('3 calls without a call id');
  });

  it('reads the depth-first answer the same way: 3 calls, 3 results, no orphan', async () => {
    expect(corpusCounts(DFS)).toEqual({ calls: 3, results: 3, orphans: 0 });
    const { report, result } = await audited([input(DFS)], resolveConfig(config()));
    expect(report.files).toEqual([{ path: DFS, format: NAME, records: 7, runs: 1, skipped: [], toolCalls: 3, toolResults: 3 }]);
    expect(result.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[3, 3]]);
    expect(result.findings.map((f) => [f.ruleId, f.severity])).toEqual([['ingest-note', 'note']]);
  });

  it('from the command line with --config: exit 0 at the default fail-on, the same counts', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'agent-trace-audit.yml'), pageMapping());
    const run = await cli(['audit', corpusFile(FILE), '--format', 'json', '--config', join(dir, 'agent-trace-audit.yml')], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { files: Array<{ format: string }>; runs: Array<{ toolCalls: number; toolResults: number }> };
    expect(json.files.map((f) => f.format)).toEqual([NAME]);
    expect(json.runs.map((r) => [r.toolCalls, r.toolResults])).toEqual([[3, 3]]);
  });
});
