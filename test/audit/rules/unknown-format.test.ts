import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';

describe('unknown-format', () => {
  it('names what it saw in a file that fits no format', async () => {
    const result = await auditFiles({
      'package.json': '{"name":"x","version":"1.0.0"}',
      'empty.json': '',
      'notes.json': 'hello',
    });
    expect(findingsOf(result, 'unknown-format').map((f) => f.message)).toEqual([
      'fits no supported trace format (the file is empty)',
      'fits no supported trace format (5 bytes that are not JSON)',
      'fits no supported trace format (a JSON object with keys "name", "version")',
    ]);
    expect(result.files.map((f) => f.format)).toEqual(['unknown', 'unknown', 'unknown']);
  });

  it('reads a .jsonl file as native JSONL even when its first lines fit nothing', async () => {
    const result = await auditFiles({ 't.jsonl': '{"hello":1}\n{"kind":"llm","run_id":"r"}\n' });
    expect(findingsOf(result, 'unknown-format')).toEqual([]);
    expect(findingsOf(result, 'malformed-record').map((f) => f.line)).toEqual([1]);
    expect(result.files[0]!.format).toBe('native-jsonl');
  });
});
