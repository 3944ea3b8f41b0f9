import { describe, expect, it } from 'vitest';
import { crc32, decodeEventStream } from '../../../src/ingest/cassette/aws-event-stream.js';
import { auditTemp, countRun } from '../corpus.js';
import { agentCassette, agentTrace, frame } from './event-stream-cassette.js';

describe('CRC-32 (IEEE), written here: Node 20 has no zlib.crc32', () => {
  it('gives the published check values', () => {
    expect(crc32(Buffer.from(''))).toBe(0);
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
    expect(crc32(Buffer.from('a'))).toBe(0xe8b7be43);
    expect(crc32(Buffer.alloc(32, 0xff))).toBe(0xff6cab0b);
  });

  it('checks a range of a buffer', () => {
    expect(crc32(Buffer.from('xx123456789yy'), 2, 11)).toBe(0xcbf43926);
  });
});

describe('AWS event stream framing', () => {
  it('decodes every message with its event type, message type and payload', () => {
    const bytes = Buffer.concat([frame('chunk', { bytes: 'aGk=' }), frame('trace', { trace: {} })]);
    const { messages, problem } = decodeEventStream(bytes);
    expect(problem).toBeNull();
    expect(messages.map((m) => [m.eventType, m.messageType, m.payload.toString()])).toEqual([
      ['chunk', 'event', '{"bytes":"aGk="}'],
      ['trace', 'event', '{"trace":{}}'],
    ]);
  });

  it('stops at a bad prelude CRC, a bad message CRC or a cut message, keeping the messages before it', () => {
    const first = frame('chunk', { bytes: 'aGk=' });
    const second = frame('trace', { trace: {} });
    const badPrelude = Buffer.from(second);
    badPrelude.writeUInt8(badPrelude.readUInt8(9) ^ 0xff, 9);
    const badMessage = Buffer.from(second);
    badMessage.writeUInt8(badMessage.readUInt8(second.length - 6) ^ 0x01, second.length - 6);
    const at = first.length;
    expect(decodeEventStream(Buffer.concat([first, badPrelude])).problem).toMatch(new RegExp(`^event stream message 2 \\(byte ${at}\\) has a bad prelude CRC32 \\(0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\\)$`));
    expect(decodeEventStream(Buffer.concat([first, badMessage])).problem).toMatch(/^event stream message 2 \(byte \d+\) has a bad message CRC32/);
    expect(decodeEventStream(Buffer.concat([first, second.subarray(0, 20)])).problem).toBe(`event stream message 2 (byte ${at}) is cut short: 20 of its ${second.length} bytes`);
    expect(decodeEventStream(Buffer.concat([first, second.subarray(0, 5)])).problem).toBe(`event stream message 2 (byte ${at}) is cut short: 5 bytes left of its 12-byte prelude`);
    expect(decodeEventStream(Buffer.concat([first, badMessage])).messages).toHaveLength(1);
  });
});

const call = (traceId: string, fn: string, value: string) => agentTrace({ invocationInput: { traceId, invocationType: 'ACTION_GROUP', actionGroupInvocationInput: { actionGroupName: 'math', function: fn, parameters: [{ name: 'n', type: 'number', value }] } } });
const answer = (traceId: string, text: string) => agentTrace({ observation: { traceId, type: 'ACTION_GROUP', actionGroupInvocationOutput: { text } } });

describe('Bedrock Agents traces in a cassette (generated)', () => {
  it('pairs each observation with the earliest unanswered input of its kind and trace id; a second call of one trace id is <traceId>#2', async () => {
    const kb = agentTrace({ invocationInput: { traceId: 't-1', knowledgeBaseLookupInput: { knowledgeBaseId: 'KB1', text: 'q' } } });
    const kbOut = agentTrace({ observation: { traceId: 't-1', type: 'KNOWLEDGE_BASE', knowledgeBaseLookupOutput: { retrievedReferences: [] } } });
    const done = agentTrace({ observation: { traceId: 't-2', type: 'FINISH', finalResponse: { text: 'done' } } });
    const stray = answer('t-9', 'no call asked');
    const bytes = Buffer.concat([call('t-0', 'add', '1'), call('t-0', 'mul', '2'), answer('t-0', '3'), kb, answer('t-0', '4'), kbOut, stray, done, frame('chunk', { bytes: Buffer.from('done').toString('base64') })]);
    const { result, runs } = await auditTemp({ 'agent.yaml': agentCassette(bytes) });
    expect(result.files.map((f) => [f.format, f.skipped])).toEqual([['bedrock', []]]);
    expect(runs[0]!.calls.map((c) => [c.callId, c.tool, c.args, c.loc.line])).toEqual([
      ['t-0', 'math__add', { n: '1' }, 8],
      ['t-0#2', 'math__mul', { n: '2' }, 8],
      ['t-1', 'knowledge_base__KB1', { text: 'q' }, 8],
    ]);
    expect(runs[0]!.results.map((r) => [r.callId, r.content])).toEqual([['t-0', '3'], ['t-0#2', '4'], ['t-1', []], ['t-9', 'no call asked']]);
    expect(countRun(runs[0]!)).toMatchObject({ calls: 3, results: 4, orphans: [], unmatched: ['t-9:-'] });
  });

  it('a bad prelude CRC: malformed-record and partial-read; the messages before it are read', async () => {
    const good = call('t-0', 'add', '1');
    const bad = answer('t-0', '1');
    bad.writeUInt8(bad.readUInt8(8) ^ 0xff, 8);
    const { result, runs } = await auditTemp({ 'agent.yaml': agentCassette(Buffer.concat([good, bad])) });
    expect(runs[0]!.calls.map((c) => c.callId)).toEqual(['t-0']);
    expect(result.findings.map((f) => [f.ruleId, f.line, f.message.replace(/0x[0-9a-f]{8}/g, 'X')])).toEqual([
      ['catalog-missing', 8, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      ['malformed-record', 8, `response event stream message 2 (byte ${good.length}) has a bad prelude CRC32 (X, computed X)`],
      ['orphan-call', 8, "call 't-0' to 'math__add' has no result (nothing followed it in the run)"],
      ['partial-read', 8, "1 skipped record(s) look like tool calls or results ('bedrock' does not read them; first at line 8)"],
    ]);
    expect(result.files[0]!.skipped).toEqual([
      { reason: 'malformed-record', count: 1, firstLine: 8 },
      { reason: 'response event stream not read to its end', count: 1, firstLine: 8 },
    ]);
  });

  it('a bad message CRC in the first message: nothing decoded, the file is partly read, never silently empty', async () => {
    const bad = call('t-0', 'add', '1');
    bad.writeUInt8(bad.readUInt8(bad.length - 1) ^ 0x01, bad.length - 1);
    const { result, runs } = await auditTemp({ 'agent.yaml': agentCassette(bad) });
    expect(runs.flatMap((r) => r.calls)).toEqual([]);
    expect(result.findings.map((f) => [f.ruleId, f.line, f.message.replace(/0x[0-9a-f]{8}/g, 'X')])).toEqual([
      ['malformed-record', 8, 'response event stream message 1 (byte 0) has a bad message CRC32 (X, computed X)'],
      ['partial-read', 8, "1 skipped record(s) look like tool calls or results ('bedrock' does not read them; first at line 8)"],
    ]);
  });

  it('a truncated last message, without a Content-Type header (the framing is recognized by its prelude CRC)', async () => {
    const whole = Buffer.concat([call('t-0', 'add', '1'), answer('t-0', '1')]);
    const cut = whole.subarray(0, whole.length - 10);
    const { result, runs } = await auditTemp({ 'agent.yaml': agentCassette(cut, false) });
    expect(runs[0]!.calls.map((c) => c.callId)).toEqual(['t-0']);
    expect(result.findings.filter((f) => f.ruleId === 'malformed-record').map((f) => f.message)).toEqual([
      `response event stream message 2 (byte ${call('t-0', 'add', '1').length}) is cut short: ${answer('t-0', '1').length - 10} of its ${answer('t-0', '1').length} bytes`,
    ]);
    expect(result.findings.map((f) => f.ruleId)).toContain('partial-read');
  });
});
