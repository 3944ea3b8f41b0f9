import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';

describe('missing-final-newline', () => {
  it('notes a complete last record without a newline (CRLF files too)', async () => {
    const result = await auditFiles({
      'a.jsonl': '{"kind":"llm","run_id":"r"}\n{"kind":"llm","run_id":"r"}',
      'b.jsonl': '{"kind":"llm","run_id":"r"}\r\n{"kind":"llm","run_id":"r"}\r\n',
    });
    expect(result.findings.map((f) => [f.file, f.ruleId, f.line])).toEqual([['a.jsonl', 'missing-final-newline', 2]]);
    expect(findingsOf(result, 'missing-final-newline')[0]!.message).toBe('last record has no final newline');
  });

  it('blank lines and a trailing newline are fine', async () => {
    const result = await auditFiles({ 'a.jsonl': '\n{"kind":"llm","run_id":"r"}\n\n   \n' });
    expect(result.findings).toEqual([]);
  });
});
