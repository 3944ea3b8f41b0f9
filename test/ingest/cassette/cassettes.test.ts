import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';
import { auditCorpus, auditTemp, countRun } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'cassettes';

// Truth from the files with python3 (yaml.safe_load decodes !!binary, gzip.decompress inflates):
// interactions with a response = model turns; tool_use / tool_calls ids = calls; tool_result / role:"tool" ids = results.
describeCorpus('VCR cassettes: corpus (OpenLLMetry, OpenTelemetry contrib)', corpusFilesUnder(dir), () => {
  it('inflates gzip !!binary bodies and labels Anthropic cassettes anthropic-messages, OpenAI ones openai', async () => {
    const names = ['openllmetry-anthropic-tools-history', 'openllmetry-anthropic-tools', 'openllmetry-openai-chat-tool-calls', 'otel-contrib-bedrock-anthropic-tool-call'];
    const { result, runs } = await auditCorpus(names.map((n) => `${dir}/${n}.yaml`));
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

// Streamed responses (server-sent events, `stream: true`), truth with python3: the `data:` payloads of each response in
// order (a response's line is the line after its `response:` key, where its map begins); Anthropic content_block_start tool_use blocks with their input_json_delta pieces joined; OpenAI chunks'
// choices[].delta.tool_calls by index, id from the first piece, function.arguments joined.
describeCorpus('VCR cassettes: streamed responses (corpus, OpenLLMetry)', corpusFilesUnder(dir), () => {
  it('assembles the Anthropic stream: both tool_use blocks are calls with their streamed input', async () => {
    const { result, runs } = await auditCorpus([`${dir}/openllmetry-anthropic-tools-streaming.yaml`]);
    expect(result.files.map((f) => [f.format, f.records, f.skipped])).toEqual([['anthropic-messages', 4, []]]);
    expect(runs.map(countRun)).toEqual([
      // The cassette ends with the model's request for both tools: nothing ran them (true orphans).
      { runId: null, llm: 1, calls: 2, results: 0, errors: 0, orphans: ['toolu_014x5X91kx3fvdhpLvwXZWE2:get_weather', 'toolu_0121kXsENLvoDZ72LCuAnCCz:get_time'], unmatched: [], catalog: ['get_time', 'get_weather'] },
    ]);
    expect(runs[0]!.calls.map((c) => [c.loc.line, c.args])).toEqual([
      [50, { location: 'San Francisco, CA', unit: 'celsius' }],
      [50, { timezone: 'America/Los_Angeles' }],
    ]);
    expect(result.findings.map((f) => [f.ruleId, f.line, f.callId])).toEqual([
      // Findings of one line are in call id order.
      ['orphan-call', 50, 'toolu_0121kXsENLvoDZ72LCuAnCCz'],
      ['orphan-call', 50, 'toolu_014x5X91kx3fvdhpLvwXZWE2'],
    ]);
  });

  it('assembles OpenAI chat chunks: two parallel tool calls per response, arguments joined from their pieces', async () => {
    const { result, runs } = await auditCorpus([`${dir}/openllmetry-openai-tools-streaming-parallel.yaml`]);
    expect(result.files.map((f) => [f.format, f.skipped])).toEqual([['openai', []]]);
    expect(countRun(runs[0]!)).toMatchObject({ llm: 2, calls: 4, results: 0, catalog: ['get_current_weather'] });
    expect(runs[0]!.calls.map((c) => [c.loc.line, c.callId, c.args, c.ts])).toEqual([
      [41, 'call_cCPjAyfwTzboEKjVlqFrArNF', { location: 'San Francisco' }, 1719816565000],
      [41, 'call_Zi4He1Ns0mozwT6f85nW1BOW', { location: 'Boston' }, 1719816565000],
      [185, 'call_u0T52evs3Y0byXDiUv5Al8dG', { location: 'San Francisco' }, 1774963589000],
      [185, 'call_iXfR9wmFaDTHUw5YaVxD1uFH', { location: 'Boston' }, 1774963589000],
    ]);
    expect(result.findings.filter((f) => f.ruleId === 'orphan-call').map((f) => f.callId)).toEqual(['call_Zi4He1Ns0mozwT6f85nW1BOW', 'call_cCPjAyfwTzboEKjVlqFrArNF', 'call_iXfR9wmFaDTHUw5YaVxD1uFH', 'call_u0T52evs3Y0byXDiUv5Al8dG']);
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
    expect(findingsOf(result, 'malformed-record')).toEqual([{ line: 7, callId: null, tool: null, runId: null, message: 'response compressed body inflates past the limit of 1048576 bytes (limits.max-document-bytes)' }]);
    expect(result.files[0]!.format).toBe('anthropic-messages');
  });

  it('a corrupt gzip body is a malformed-record at its response', async () => {
    const cut = gzipSync(Buffer.from(message)).subarray(0, 20);
    const result = await auditFiles({ 'c.yaml': cassette(binary(cut)) });
    expect(findingsOf(result, 'malformed-record').map((f) => [f.line, f.message])).toEqual([[7, 'response gzip body cannot be inflated (Z_BUF_ERROR)']]);
  });

  it('a streamed (event-stream) Anthropic response is assembled: its tool_use is a call', async () => {
    const events = ['event: message_start', `data: {"type":"message_start","message":{"id":"m","role":"assistant","content":[]}}`, '', 'event: content_block_start', `data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"ls","input":{}}}`, '', 'event: content_block_delta', `data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"path\\": "}}`, '', `data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\\"/tmp\\"}"}}`, ''];
    const { result, runs } = await auditTemp({ 'c.yaml': cassette(binary(gzipSync(Buffer.from(events.join('\n'))))) });
    expect(result.files[0]!.skipped).toEqual([]);
    expect(runs[0]!.calls.map((c) => [c.callId, c.tool, c.args])).toEqual([['t1', 'ls', { path: '/tmp' }]]);
    expect(result.findings.filter((f) => f.ruleId === 'orphan-call').map((f) => [f.line, f.callId])).toEqual([[7, 't1']]);
  });

  it('an event stream of another API is counted as skipped and, holding a tool_use, raises partial-read', async () => {
    const events = [`data: {"type":"tool_use","id":"t1","name":"ls","input":{}}`, ''];
    const result = await auditFiles({ 'c.yaml': cassette(binary(gzipSync(Buffer.from(events.join('\n'))))) });
    expect(result.files[0]!.skipped).toEqual([{ reason: 'response body is an event stream of no API this reader knows (not read)', count: 1, firstLine: 7 }]);
    expect(findingsOf(result, 'partial-read').map((f) => f.line)).toEqual([7]);
  });

  it('a plain (not compressed) !!binary body is read as text', async () => {
    const result = await auditFiles({ 'c.yaml': cassette(binary(Buffer.from(message))) });
    expect(result.runs.map((r) => [r.format, r.toolCalls])).toEqual([['anthropic-messages', 1]]);
    expect(findingsOf(result, 'orphan-call').map((f) => f.callId)).toEqual(['t1']);
  });
});
