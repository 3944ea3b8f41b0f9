import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { jsonl, tempTree } from '../helpers.js';
import { runBundle } from './run-cli.js';
import { corpusFile, itCorpus } from '../public-corpus.js';

// Issue 18's check, on the real bundle: a JSONL file of unrelated records is one
// unknown-format warning and the audit passes at the default fail-on.
describe('a JSONL file that fits no format (dist/cli.js)', () => {
  itCorpus('a fine-tuning dataset and a benchmark dataset: one warning each, exit 0', ['unrelated/multi-swe-bench-patch.jsonl'], () => {
    const root = tempTree({
      'train.jsonl': jsonl({ prompt: 'Morada Limited is a textile company ->', completion: ' Company' }, { prompt: 'Le Cadeau is a 1982 film ->', completion: ' Film' }),
      'patch.jsonl': readFileSync(corpusFile('unrelated/multi-swe-bench-patch.jsonl')),
    });
    const { code, stdout, stderr } = runBundle(['audit', '.', '--format', 'json'], root);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = reportSchema.parse(JSON.parse(stdout));
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
