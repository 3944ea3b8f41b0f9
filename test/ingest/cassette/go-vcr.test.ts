import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseFormat } from '../../../src/ingest/detect.js';
import { goVcrVersion, looksLikeCassette } from '../../../src/ingest/cassette/signature.js';
import { isCassetteFile } from '../../../src/io/cassette-sniff.js';
import { collectInputs } from '../../../src/io/collect.js';
import { tempTree } from '../../helpers.js';
import { auditTemp, countRun } from '../corpus.js';
import { frame } from './event-stream-cassette.js';

const tools = '"tools":[{"type":"function","function":{"name":"ls","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]';
const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1719816565, choices: [{ index: 0, delta, finish_reason: finish }] })}`;
// A streamed Chat Completions response: the tool call's arguments come in two pieces.
const sse = [
  chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"/tmp"}' } }] }),
  chunk({}, 'tool_calls'),
  'data: [DONE]',
  '',
].join('\n\n');

/** go-vcr v1 (yaml.v2 of go-vcr's cassette.Cassette): `version: 1`, request `body`, `form`, `headers`, `url`, `method`; response `body`, `status`, `code`, `duration`. */
const v1 = [
  '---',
  'version: 1',
  'interactions:',
  '- request:',
  `    body: '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"list /tmp"}],${tools}}'`,
  '    form: {}',
  '    headers:',
  '      Content-Type:',
  '      - application/json',
  '    url: https://api.openai.com/v1/chat/completions',
  '    method: POST',
  '  response:',
  `    body: ${JSON.stringify(sse)}`,
  '    headers:',
  '      Content-Type:',
  '      - text/event-stream',
  '    status: 200 OK',
  '    code: 200',
  '    duration: ""',
  '- request:',
  '    body: |',
  `      {"model":"gpt-4o","messages":[{"role":"user","content":"list /tmp"},{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":"{\\"path\\":\\"/tmp\\"}"}}]},{"role":"tool","tool_call_id":"call_1","content":"a.txt"}],${tools}}`,
  '    form: {}',
  '    headers: {}',
  '    url: https://api.openai.com/v1/chat/completions',
  '    method: POST',
  '  response:',
  `    body: '{"id":"c2","object":"chat.completion","created":1719816570,"choices":[{"index":0,"message":{"role":"assistant","content":"a.txt"},"finish_reason":"stop"}]}'`,
  '    headers: {}',
  '    status: 200 OK',
  '    code: 200',
  '    duration: ""',
  '',
].join('\n');

/** go-vcr v2 of Bedrock ConverseStream: a body that is not UTF-8 is written by yaml.v3 as !!binary. */
const converse = (events: Buffer) =>
  [
    '---',
    'version: 2',
    'interactions:',
    '- id: 0',
    '  request:',
    '    proto: HTTP/1.1',
    '    proto_major: 1',
    '    proto_minor: 1',
    `    body: '{"messages":[{"role":"user","content":[{"text":"top song?"}]}],"toolConfig":{"tools":[{"toolSpec":{"name":"top_song","inputSchema":{"json":{"type":"object"}}}}]}}'`,
    '    url: https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream',
    '    method: POST',
    '  response:',
    '    proto: HTTP/1.1',
    `    body: !!binary ${events.toString('base64')}`,
    '    headers:',
    '      Content-Type:',
    '      - application/vnd.amazon.eventstream',
    '    status: 200 OK',
    '    code: 200',
    '',
  ].join('\n');

describe('go-vcr cassettes (generated)', () => {
  it('v1 with a streamed (server-sent events) OpenAI body: assembled, the call paired with the next request\'s tool message', async () => {
    expect(goVcrVersion(Buffer.from(v1))).toBe(1);
    const { result, runs } = await auditTemp({ 'v1.yaml': v1 });
    expect(result.files.map((f) => [f.format, f.runs, f.skipped])).toEqual([['openai', 1, []]]);
    expect(countRun(runs[0]!)).toEqual({ runId: null, llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['ls'] });
    expect(runs[0]!.calls.map((c) => [c.loc.line, c.callId, c.tool, c.args, c.ts])).toEqual([[13, 'call_1', 'ls', { path: '/tmp' }, 1719816565000]]);
    expect(result.findings).toEqual([]);
  });

  it("v2 of Bedrock ConverseStream: the !!binary event stream's toolUse is a call with its joined input", async () => {
    const events = Buffer.concat([
      frame('messageStart', { role: 'assistant' }),
      frame('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'tu_1', name: 'top_song' } } }),
      frame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"sign":' } } }),
      frame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '"WZPZ"}' } } }),
      frame('contentBlockStop', { contentBlockIndex: 0 }),
      frame('messageStop', { stopReason: 'tool_use' }),
    ]);
    const text = converse(events);
    expect(goVcrVersion(Buffer.from(text))).toBe(2);
    const { result, runs } = await auditTemp({ 'converse.yaml': text });
    expect(result.files.map((f) => [f.format, f.skipped])).toEqual([['bedrock', []]]);
    expect(runs[0]!.calls.map((c) => [c.loc.line, c.callId, c.tool, c.args])).toEqual([[13, 'tu_1', 'top_song', { sign: 'WZPZ' }]]);
    expect(result.findings.map((f) => [f.ruleId, f.line, f.callId])).toEqual([['orphan-call', 13, 'tu_1']]);
  });

  it('a Converse request replaying a toolUse and its failed toolResult (status error): a call, an error result, paired by toolUseId', async () => {
    const request = JSON.stringify({
      messages: [
        { role: 'user', content: [{ text: 'top song?' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'tu_1', name: 'top_song', input: { sign: 'WZPZ' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tu_1', content: [{ text: 'station unknown' }], status: 'error' } }] },
      ],
      toolConfig: { tools: [{ toolSpec: { name: 'top_song', inputSchema: { json: { type: 'object' } } } }] },
    });
    const text = converse(frame('messageStart', { role: 'assistant' })).replace(/ {4}body: '\{"messages".*\n/, `    body: '${request}'\n`).replace('/converse-stream', '/converse');
    const { result, runs } = await auditTemp({ 'converse.yaml': text });
    expect(result.files.map((f) => [f.format, f.skipped])).toEqual([['bedrock', []]]);
    expect(countRun(runs[0]!)).toEqual({ runId: null, llm: 1, calls: 1, results: 1, errors: 1, orphans: [], unmatched: [], catalog: ['top_song'] });
    expect(runs[0]!.results.map((r) => [r.callId, r.isError, r.content])).toEqual([['tu_1', true, [{ text: 'station unknown' }]]]);
  });

  it('an exception message in the stream is a malformed-record and the file partly read', async () => {
    const events = Buffer.concat([frame('messageStart', { role: 'assistant' }), frame('throttlingException', { message: 'slow down' }, 'exception')]);
    const { result } = await auditTemp({ 'converse.yaml': converse(events) });
    expect(result.findings.map((f) => [f.ruleId, f.line, f.message])).toEqual([
      ['unused-tool', 4, "tool 'top_song' is in the catalog but the run never called it (no calls at all)"],
      ['malformed-record', 13, 'response event stream ends with the exception "throttlingException"'],
      ['partial-read', 13, "1 skipped record(s) look like tool calls or results ('bedrock' does not read them; first at line 13)"],
    ]);
  });

  it('is told apart by its own signature: version first, then interactions; vcrpy keeps version last', () => {
    expect(looksLikeCassette(Buffer.from(v1))).toBe(true);
    expect(goVcrVersion(Buffer.from('interactions:\n- request:\n    uri: x\nversion: 1\n'))).toBeNull();
    expect(looksLikeCassette(Buffer.from('---\nversion: 3\ninteractions:\n- request:\n'))).toBe(false);
    expect(looksLikeCassette(Buffer.from('version: 2\nservices:\n  request:\n'))).toBe(false);
  });

  it('a folder scan finds go-vcr v1 and v2 cassettes among other YAML', async () => {
    const root = tempTree({ 'rec/v1.yaml': v1, 'rec/v2.yaml': converse(frame('messageStart', { role: 'assistant' })), 'rec/compose.yaml': 'version: "3"\nservices:\n  web:\n    image: x\n' });
    expect(await Promise.all(['v1.yaml', 'v2.yaml', 'compose.yaml'].map((n) => isCassetteFile(join(root, 'rec', n))))).toEqual([true, true, false]);
    expect((await collectInputs(['rec'], { root, strict: true })).inputs.map((i) => i.display)).toEqual(['rec/v1.yaml', 'rec/v2.yaml']);
  });

  it('a YAML file no format reads is described by its YAML keys, never by a JSON body inside it', () => {
    const yaml = 'name: recorded\nsteps:\n  - body: |\n      {"contents":[{"parts":[]}],"tools":[]}\n      {"contents":[{"parts":[]}],"tools":[]}\n';
    const lines = yaml.split('\n').map((l) => { try { return JSON.parse(l) as unknown; } catch { return null; } }).filter((v) => v !== null);
    const choice = chooseFormat({ file: 'x.yaml', head: Buffer.from(yaml), document: undefined, jsonLines: lines } as never);
    expect(choice).toEqual({ format: null, message: 'fits no supported trace format (YAML with top-level keys "name", "steps")' });
  });
});
