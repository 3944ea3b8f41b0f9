import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { jsonl, tempTree } from '../helpers.js';
import { runBundle } from './run-cli.js';
import { corpusFile, itCorpus } from '../public-corpus.js';

// Issue 18's check, on the real bundle: a JSONL file of unrelated records is one
// unknown-format warning. Nothing was audited, so the run fails (exit 1) unless --allow-empty,
// which passes it at the default fail-on with the same report (but its verdict's `failed`).
describe('a JSONL file that fits no format (dist/cli.js)', () => {
  itCorpus('a fine-tuning dataset and a benchmark dataset: one warning each, exit 1 (nothing audited), 0 with --allow-empty', ['unrelated/multi-swe-bench-patch.jsonl'], () => {
    const root = tempTree({
      'train.jsonl': jsonl({ prompt: 'Morada Limited is a textile company ->', completion: ' Company' }, { prompt: 'Le Cadeau is a 1982 film ->', completion: ' Film' }),
      'patch.jsonl': readFileSync(corpusFile('unrelated/multi-swe-bench-patch.jsonl')),
    });
    const strict = runBundle(['audit', '.', '--format', 'json'], root);
    expect([strict.code, strict.stderr]).toEqual([1, '']);
    const { code, stdout, stderr } = runBundle(['audit', '.', '--format', 'json', '--allow-empty'], root);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // The same report but its verdict: nothing audited either way, failing only without --allow-empty.
    const report = reportSchema.parse(JSON.parse(stdout));
    const { verdict: strictVerdict, ...strictRest } = reportSchema.parse(JSON.parse(strict.stdout));
    const { verdict, ...rest } = report;
    expect(rest).toEqual(strictRest);
    expect([strictVerdict?.state, strictVerdict?.failed, verdict?.state, verdict?.failed, verdict?.headline]).toEqual(['nothing-audited', true, 'nothing-audited', false, strictVerdict?.headline]);
    expect(report.summary.findings).toEqual({ error: 0, warning: 2, note: 0 });
    expect(report.findings.map((f) => [f.file, f.line, f.ruleId])).toEqual([
      ['patch.jsonl', 0, 'unknown-format'],
      ['train.jsonl', 0, 'unknown-format'],
    ]);
    expect(report.files.map((f) => [f.path, f.format])).toEqual([
      ['patch.jsonl', 'unknown'],
      ['train.jsonl', 'unknown'],
    ]);
  });
});
