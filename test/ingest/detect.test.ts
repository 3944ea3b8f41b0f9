import { describe, expect, it } from 'vitest';
import { chooseFormat } from '../../src/ingest/detect.js';
import { claudeCodeFormat } from '../../src/ingest/anthropic/claude-code.js';
import { Evidence, type DetectSample, type TraceFormat } from '../../src/ingest/types.js';
import { auditFiles, findingsOf, jsonl } from '../helpers.js';

const sample = (lines: unknown[], file = 't.jsonl'): DetectSample => ({
  file,
  head: Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n') + '\n'),
  jsonLines: lines,
  document: lines.length === 1 ? lines[0] : undefined,
});
const fake = (id: string, strength: number): TraceFormat => ({ id, description: id, detect: () => strength, parse: async () => undefined });

describe('format detection by evidence', () => {
  it('the strongest evidence wins, whatever the registry order', () => {
    const choice = chooseFormat(sample([{ a: 1 }, { a: 2 }]), undefined, [fake('generic', Evidence.shape), fake('specific', Evidence.signature), fake('middle', Evidence.structure)]);
    expect(choice).toEqual({ format: expect.objectContaining({ id: 'specific' }), note: null });
  });

  it('a tie is read by the first in registry order, with a note naming both', () => {
    const choice = chooseFormat(sample([{ a: 1 }, { a: 2 }]), undefined, [fake('none', 0), fake('first', Evidence.structure), fake('second', Evidence.structure)]);
    expect(choice).toEqual({
      format: expect.objectContaining({ id: 'first' }),
      note: "fits 'first' and 'second' equally well; read as 'first' (force another with --input-format)",
    });
  });

  it('no evidence at all is no format, with a message (never a fallback parser)', () => {
    const choice = chooseFormat(sample([{ a: 1 }, { a: 2 }]), undefined, [fake('x', 0)]);
    expect(choice).toEqual({ format: null, message: 'fits no supported trace format (JSON lines whose first record has keys "a")' });
  });

  it('Claude Code claims its own lines, not Gemini CLI logs that share "sessionId" and type "user"', () => {
    // The shape of gemini-cli's logs (packages/core/src/core/logger.ts LogEntry: sessionId, messageId, timestamp, type, message as a string).
    const gemini = [
      { sessionId: '4f2c', messageId: 0, timestamp: '2025-10-18T14:57:28.974Z', type: 'user', message: 'List the files in the current directory' },
      { sessionId: '4f2c', messageId: 1, timestamp: '2025-10-18T14:58:01.000Z', type: 'user', message: '/quit' },
    ];
    expect(claudeCodeFormat.detect(sample(gemini))).toBe(Evidence.none);
    const claude = [{ type: 'user', sessionId: 's', uuid: 'u1', message: { role: 'user', content: 'hi' } }];
    expect(claudeCodeFormat.detect(sample(claude))).toBe(Evidence.signature);
  });

  it('a Gemini CLI log is one unknown-format warning that names Claude Code as the closest and says why not', async () => {
    const result = await auditFiles({
      'logs.jsonl': jsonl(
        { sessionId: '4f2c', messageId: 0, timestamp: '2025-10-18T14:57:28.974Z', type: 'user', message: 'List the files' },
        { sessionId: '4f2c', messageId: 1, timestamp: '2025-10-18T14:58:01.000Z', type: 'user', message: '/quit' },
      ),
    });
    expect(result.findings.map((f) => [f.ruleId, f.message])).toEqual([
      [
        'unknown-format',
        'fits no supported trace format (JSON lines whose first record has keys "sessionId", "messageId", "timestamp", "type", "message"); closest is \'claude-code\', but no line is a Claude Code record (a user/assistant line with a "message" object that has its "role" and "content", a system/result line with a "subtype" and session id, a summary with a "leafUuid")',
      ],
    ]);
  });

  it('a tie between two real formats becomes an ingest-note finding at line 0', async () => {
    const { FORMATS } = await import('../../src/ingest/registry.js');
    const twin: TraceFormat = { id: 'twin', description: 'test', detect: (s) => (s.jsonLines.length > 0 ? Evidence.structure : 0), parse: async () => undefined };
    (FORMATS as TraceFormat[]).push(twin);
    try {
      const result = await auditFiles({ 't.jsonl': jsonl({ kind: 'llm', run_id: 'r' }) });
      expect(findingsOf(result, 'ingest-note')).toEqual([
        { line: 0, callId: null, tool: null, runId: null, message: "fits 'native-jsonl' and 'twin' equally well; read as 'native-jsonl' (force another with --input-format)" },
        // True: the one record is a model request.
        { line: 0, callId: null, tool: null, runId: null, message: "the file holds no tool calls ('native-jsonl': no tool call or result read, and no tool-shaped content)" },
      ]);
      expect(result.files[0]!.format).toBe('native-jsonl');
    } finally {
      (FORMATS as TraceFormat[]).pop();
    }
  });
});
