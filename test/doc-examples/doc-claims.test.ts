import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEAL } from '../../src/cli/commands/seal.js';
import { REPORT_FILE } from '../../src/github/artifacts/stored-report.js';
import { TRACE_FILE } from '../../src/io/collect.js';
import { reportSchema } from '../../src/report/schema.js';

/**
 * What README.md, docs/ and action.yml say of the tool in prose, checked against the code
 * that does it (the commands they show are run by ./doc-pages.test.ts).
 */
const read = (path: string) => readFileSync(path, 'utf8');
const ACTION_YML = read('action.yml');

/** The description of one input of action.yml (its `description:` line). */
function inputDescription(name: string): string {
  const at = ACTION_YML.indexOf(`\n  ${name}:\n`);
  expect(at, name).toBeGreaterThan(0);
  return /description: (.*)/.exec(ACTION_YML.slice(at))![1]!;
}

describe('the docs say what the tool does', () => {
  it('the JSON report the Action uploads is named as the Action names it, nowhere `report.json`', () => {
    expect(read('docs/report-schema.md')).toContain(`\`${REPORT_FILE}\``);
    for (const page of ['README.md', 'docs/report-schema.md', 'docs/action.md', 'docs/configuration.md']) {
      expect(read(page), page).not.toMatch(/(as|in|only in) `report\.json`|findings of `report\.json`/);
    }
  });

  it('report-schema.md names every field of files[]', () => {
    const row = read('docs/report-schema.md').split('\n').find((line) => line.startsWith('| `files[]` |'))!;
    const example = read('docs/report-schema.md').split('\n').find((line) => line.trimStart().startsWith('"files": ['))!;
    for (const key of Object.keys(reportSchema.shape.files.element.shape)) expect(row, key).toContain(`\`${key}\``);
    for (const key of ['toolCalls', 'toolResults']) expect(example, key).toContain(`"${key}"`);
  });

  it("action.yml's traces input names every extension a folder is searched for (src/io/collect.ts)", () => {
    const extensions = /\(([^)]+)\)/.exec(TRACE_FILE.source)![1]!.split('|');
    expect(extensions).toEqual(['jsonl', 'ndjson', 'json', 'eval']);
    for (const extension of extensions) expect(inputDescription('traces')).toMatch(new RegExp(`\\*\\.${extension}(?![a-z])`));
  });

  it("action.yml's baseline takes the last completed runs (src/github/baseline.ts lists runs with status: completed)", () => {
    expect(read('src/github/baseline.ts')).toContain("status: 'completed'");
    expect(inputDescription('baseline')).toContain('last completed runs');
    for (const text of [ACTION_YML, read('docs/action.md')]) expect(text).not.toMatch(/latest successful/);
  });

  it('sealing.md calls the form seal uses by default the default, and no other', () => {
    const form = SEAL.flags.find((flag) => flag.name === 'form')!.default;
    expect(form).toBe('auto');
    const sealing = read('docs/sealing.md');
    expect(sealing).toContain('`--form auto`, the default');
    expect(sealing.match(/`--(?:form|canonical) \w+`[^.]{0,12}\(the default\)/g) ?? []).toEqual([]);
  });

  it('sealing.md says once what source_sha256 is a hash of, and the redaction section points to it', () => {
    const sealing = read('docs/sealing.md');
    expect(sealing.match(/`source_sha256` \| SHA-256 of/g)).toHaveLength(1);
    expect(sealing).not.toMatch(/original file's bytes as they were on disk/);
  });
});
