import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf, jsonl } from '../../../helpers.js';
import { corpusFile, itCorpus } from '../../../public-corpus.js';

describe('unknown-format', () => {
  it('names what it saw in a file that fits no format; text that is not JSON or YAML is not a trace, listed apart', async () => {
    const result = await auditFiles({
      'package.json': '{"name":"x","version":"1.0.0"}',
      'empty.json': '',
      'notes.json': 'hello',
    });
    expect(findingsOf(result, 'unknown-format').map((f) => f.message)).toEqual([
      'fits no supported trace format (the file is empty)',
      'fits no supported trace format (a JSON object with keys "name", "version")',
    ]);
    expect(result.files.map((f) => f.format)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(result.files.filter((f) => f.notTrace !== undefined).map((f) => f.path)).toEqual(['notes.json']);
  });

  itCorpus('a JSONL file of unrelated records is one warning naming the closest format, not an error per line', ['unrelated/multi-swe-bench-patch.jsonl'], async () => {
    // Three records of a public benchmark dataset (OpenHands multi_swe_bench examples): keys org, repo, number, fix_patch.
    const bytes = readFileSync(corpusFile('unrelated/multi-swe-bench-patch.jsonl'));
    const result = await auditFiles({ 'patch.jsonl': bytes });
    expect(result.findings.map((f) => [f.ruleId, f.severity, f.line, f.message])).toEqual([
      [
        'unknown-format',
        'warning',
        0,
        'fits no supported trace format (JSON lines whose first record has keys "org", "repo", "number", "fix_patch"); closest is \'native-jsonl\', but its first record fits no native dialect (no kind, type, index or boundary fields)',
      ],
    ]);
    expect(result.files).toEqual([{ path: 'patch.jsonl', format: 'unknown', records: 0, runs: 0, skipped: [], toolCalls: 0, toolResults: 0 }]);
  });

  it('a fine-tuning dataset ({"prompt", "completion"} lines) is one warning', async () => {
    const lines = jsonl({ prompt: 'Company: Morada Limited ->', completion: ' Company' }, { prompt: 'Film: Le Cadeau ->', completion: ' Film' }, { prompt: 'Plant: Physena ->', completion: ' Plant' });
    const result = await auditFiles({ 'train.jsonl': lines });
    expect(result.findings.map((f) => [f.ruleId, f.severity])).toEqual([['unknown-format', 'warning']]);
  });

  it('says what "type" a line has when it is not a native one (it used to say the line had none)', async () => {
    const result = await auditFiles({ 'events.jsonl': jsonl({ type: 'step_start', id: 1 }, { type: 'step_end', id: 1 }) });
    expect(findingsOf(result, 'unknown-format').map((f) => f.message)).toEqual([
      'fits no supported trace format (JSON lines whose first record has keys "type", "id"); closest is \'native-jsonl\', but its first record fits no native dialect ("type" "step_start" is not catalog, tool_call, tool_result, catalog_unused or llm)',
    ]);
    expect(findingsOf(result, 'malformed-record')).toEqual([]);
  });

  it('a line that breaks a format the file otherwise follows is still a malformed-record at its line', async () => {
    const result = await auditFiles({ 't.jsonl': '{"hello":1}\n{"kind":"llm","run_id":"r"}\n' });
    expect(findingsOf(result, 'unknown-format')).toEqual([]);
    expect(findingsOf(result, 'malformed-record').map((f) => f.line)).toEqual([1]);
    expect(result.files).toEqual([{ path: 't.jsonl', format: 'native-jsonl', records: 1, runs: 1, skipped: [{ reason: 'malformed-record', count: 1, firstLine: 1 }], toolCalls: 0, toolResults: 0 }]);
  });

  it('an empty .jsonl file is an empty log, not a verdict: one note each that the file is empty', async () => {
    const result = await auditFiles({ 'empty.jsonl': '', 'blank.jsonl': '\n\n' });
    const none = "the file is empty ('native-jsonl': no record, only white space or nothing at all): its writer wrote no trace";
    expect(result.findings.map((f) => [f.file, f.ruleId, f.severity, f.line, f.message])).toEqual([
      ['blank.jsonl', 'ingest-note', 'note', 0, none],
      ['empty.jsonl', 'ingest-note', 'note', 0, none],
    ]);
    expect(result.files.map((f) => f.format)).toEqual(['native-jsonl', 'native-jsonl']);
  });
});
