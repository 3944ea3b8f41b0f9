import { crc32 } from '../../../src/ingest/cassette/aws-event-stream.js';

/**
 * AWS event stream messages built by hand (test/ingest/cassette/aws-event-stream.test.ts pins
 * crc32 to published check values): a 12-byte prelude with its CRC32, string headers
 * (`:event-type`, `:content-type`, `:message-type`), a JSON payload and the message CRC32.
 */
export function frame(eventType: string, payload: unknown, messageType = 'event'): Buffer {
  const header = (name: string, value: string) => {
    const n = Buffer.from(name);
    const v = Buffer.from(value);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(v.length);
    return Buffer.concat([Buffer.from([n.length]), n, Buffer.from([7]), length, v]);
  };
  const typeHeader = messageType === 'exception' ? ':exception-type' : ':event-type';
  const headers = Buffer.concat([header(typeHeader, eventType), header(':content-type', 'application/json'), header(':message-type', messageType)]);
  const body = Buffer.from(JSON.stringify(payload));
  const total = 12 + headers.length + body.length + 4;
  const message = Buffer.concat([Buffer.alloc(12), headers, body, Buffer.alloc(4)]);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headers.length, 4);
  message.writeUInt32BE(crc32(message, 0, 8), 8);
  message.writeUInt32BE(crc32(message, 0, total - 4), total - 4);
  return message;
}

/** One Bedrock Agents `trace` event of an orchestration step. */
export const agentTrace = (step: Record<string, unknown>, eventTime = '2025-05-21T09:50:23.452Z') => frame('trace', { agentId: 'A', sessionId: 's', eventTime, trace: { orchestrationTrace: step } });

/** A vcrpy cassette of one InvokeAgent call whose response body is `bytes` as `!!binary`; line 8 is the response's body. */
export function agentCassette(bytes: Buffer, contentType = true): string {
  const base64 = bytes.toString('base64').replace(/.{1,76}/g, (line) => `        ${line}\n`);
  return [
    'interactions:',
    '- request:',
    `    body: '{"inputText": "sum 10 and 20", "enableTrace": true}'`,
    '    headers: {}',
    '    method: POST',
    '    uri: https://bedrock-agent-runtime.us-east-1.amazonaws.com/agents/A/agentAliases/B/sessions/s/text',
    '  response:',
    '    body:',
    '      string: !!binary |',
    base64.trimEnd(),
    contentType ? '    headers:\n      Content-Type:\n      - application/vnd.amazon.eventstream' : '    headers: {}',
    '    status:',
    '      code: 200',
    '      message: OK',
    'version: 1',
    '',
  ].join('\n');
}
