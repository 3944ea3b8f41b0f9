import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../../helpers.js';

describe('missing-final-newline', () => {
  it('notes a complete last record without a newline (CRLF files too)', async () => {
    const result = await auditFiles({
      'a.jsonl': '{"kind":"llm","run_id":"r"}\n{"kind":"llm","run_id":"r"}',
      'b.jsonl': '{"kind":"llm","run_id":"r"}\r\n{"kind":"llm","run_id":"r"}\r\n',
    });
    expect(result.findings.map((f) => [f.file, f.ruleId, f.line])).toEqual([
      // LLM spans only: each file also gets the note that it holds no tool calls.
      ['a.jsonl', 'ingest-note', 0],
      ['a.jsonl', 'missing-final-newline', 2],
      ['b.jsonl', 'ingest-note', 0],
    ]);
    expect(findingsOf(result, 'missing-final-newline')[0]!.message).toBe('last record has no final newline');
  });

  it('blank lines and a trailing newline are fine', async () => {
    const result = await auditFiles({ 'a.jsonl': '\n{"kind":"llm","run_id":"r"}\n\n   \n' });
    expect(result.findings.map((f) => [f.ruleId, f.line, f.message])).toEqual([
      ['ingest-note', 0, "the file holds no tool calls ('native-jsonl': no tool call or result read, and no tool-shaped content)"],
    ]);
  });
});
