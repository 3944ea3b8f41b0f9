import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';
import { auditPaths, countRun } from '../corpus.js';

const dir = 'test/fixtures/corpus/cassettes';

// Truth from the files with python3 (yaml.safe_load decodes !!binary, gzip.decompress inflates):
// interactions with a response = model turns; tool_use / tool_calls ids = calls; tool_result / role:"tool" ids = results.
describe('VCR cassettes: corpus (OpenLLMetry, OpenTelemetry contrib)', () => {
  it('inflates gzip !!binary bodies and labels Anthropic cassettes anthropic-messages, OpenAI ones openai', async () => {
    const names = ['openllmetry-anthropic-tools-history', 'openllmetry-anthropic-tools', 'openllmetry-openai-chat-tool-calls', 'otel-contrib-bedrock-anthropic-tool-call'];
    const { result, runs } = await auditPaths(names.map((n) => `${dir}/${n}.yaml`));
    expect(result.files.map((f) => [f.format, f.records, f.runs, f.skipped])).toEqual([
      ['anthropic-messages', 5, 1, []],
      ['anthropic-messages', 4, 1, []],
      ['openai', 5, 1, []],
      ['anthropic-messages', 7, 1, []],
    ]);
    expect(runs.map(countRun)).toEqual([
      // The request replays call_1 and its result; the gzip response asks for get_time, which nothing answers.
      { runId: null, llm: 1, calls: 2, results: 1, errors: 0, orphans: ['toolu_01K5KhMEdg2McN7dAkB4Y4hi:get_time'], unmatched: [], catalog: ['get_time', 'get_weather'] },
      // Both tool_use blocks are only in the gzip response body (lost before: the tool looked never called).
      { runId: null, llm: 1, calls: 2, results: 0, errors: 0, orphans: ['toolu_012r6TBCWjRHG71j6zruYyUL:get_weather', 'toolu_01SkeBKkLCNYWNuivqFerGDd:get_time'], unmatched: [], catalog: ['get_time', 'get_weather'] },
      { runId: null, llm: 3, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: null, llm: 2, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: ['get_current_weather'] },
    ]);
    expect(result.findings.map((f) => [f.file.split('/').pop(), f.ruleId, f.line, f.callId])).toEqual([
      ['openllmetry-anthropic-tools-history.yaml', 'orphan-call', 53, 'toolu_01K5KhMEdg2McN7dAkB4Y4hi'],
      ['openllmetry-anthropic-tools.yaml', 'orphan-call', 50, 'toolu_012r6TBCWjRHG71j6zruYyUL'],
      ['openllmetry-anthropic-tools.yaml', 'orphan-call', 50, 'toolu_01SkeBKkLCNYWNuivqFerGDd'],
      ['openllmetry-openai-chat-tool-calls.yaml', 'catalog-missing', 2, null],
    ]);
  });
});

const cassette = (responseBody: string) =>
  [
    'interactions:',
    '- request:',
    `    body: '{"model":"claude","messages":[{"role":"user","content":"hi"}],"tools":[{"name":"ls","input_schema":{"type":"object"}}]}'`,
    '    method: POST',
    '    uri: https://api.anthropic.com/v1/messages',
    '  response:',
    '    body:',
    responseBody,
    '    status:',
    '      code: 200',
    '',
  ].join('\n');
// Line 7 of these cassettes is the response's body (the line the response map starts at).
const binary = (bytes: Buffer) => `      string: !!binary |\n        ${bytes.toString('base64')}`;
const message = JSON.stringify({ type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] });

describe('VCR cassettes: bodies', () => {
  it('a compressed body that inflates past max-document-bytes is one malformed-record, and nothing more is inflated', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    const result = await auditFiles({ 'c.yaml': cassette(binary(bomb)) }, { limits: { 'max-document-bytes': 1024 * 1024 } });
    expect(findingsOf(result, 'malformed-record')).toEqual([{ line: 7, callId: null, tool: null, runId: null, message: 'response compressed body inflates past max-document-bytes (1048576 bytes)' }]);
    expect(result.files[0]!.format).toBe('anthropic-messages');
  });

  it('a corrupt gzip body is a malformed-record at its response', async () => {
    const cut = gzipSync(Buffer.from(message)).subarray(0, 20);
    const result = await auditFiles({ 'c.yaml': cassette(binary(cut)) });
    expect(findingsOf(result, 'malformed-record').map((f) => [f.line, f.message])).toEqual([[7, 'response gzip body cannot be inflated (Z_BUF_ERROR)']]);
  });

  it('a streamed (event-stream) response is counted as skipped and, holding a tool_use, raises partial-read', async () => {
    const events = ['event: message_start', `data: {"type":"message_start","message":{"id":"m","role":"assistant","content":[]}}`, '', 'event: content_block_start', `data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"ls","input":{}}}`, ''];
    const result = await auditFiles({ 'c.yaml': cassette(binary(gzipSync(Buffer.from(events.join('\n'))))) });
    expect(result.files[0]!.skipped).toEqual([{ reason: 'response body is an event stream (streamed responses are not read)', count: 1, firstLine: 7 }]);
    expect(findingsOf(result, 'partial-read').map((f) => f.line)).toEqual([7]);
  });

  it('a plain (not compressed) !!binary body is read as text', async () => {
    const result = await auditFiles({ 'c.yaml': cassette(binary(Buffer.from(message))) });
    expect(result.runs.map((r) => [r.format, r.toolCalls])).toEqual([['anthropic-messages', 1]]);
    expect(findingsOf(result, 'orphan-call').map((f) => f.callId)).toEqual(['t1']);
  });
});
