import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';

/**
 * A cassette whose first response body is anchored (`&body`) and whose next `aliases`
 * interactions reuse it (`*body`): a small file that reads as `aliases` copies of the body.
 */
function aliasCassette(bodyBytes: number, aliases: number): string {
  const message = JSON.stringify({ type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: { pad: 'p'.repeat(bodyBytes) } }] });
  const interaction = (body: string) => [
    '- request:',
    `    body: '{"model":"claude","messages":[{"role":"user","content":"hi"}]}'`,
    '    method: POST',
    '    uri: https://api.anthropic.com/v1/messages',
    '  response:',
    `    body: ${body}`,
    '    status:',
    '      code: 200',
  ];
  const lines = ['interactions:', ...interaction(`&body\n      string: '${message}'`)];
  for (let i = 0; i < aliases; i += 1) lines.push(...interaction('*body'));
  return `${lines.join('\n')}\n`;
}

describe('VCR cassettes: aliases count against limits.max-document-bytes', () => {
  it('with a 10 MB limit, a 1 MB body aliased 20 times is read until the aliases pass the limit, then each interaction is one malformed-record', async () => {
    const text = aliasCassette(1024 * 1024, 20);
    expect(text.length).toBeLessThan(1.1 * 1024 * 1024);
    const audit = await auditFiles({ 'c.yaml': text }, { limits: { 'max-document-bytes': 10 * 1024 * 1024 } });
    const refused = findingsOf(audit, 'malformed-record');
    // The first 9 aliases (1,048,690 bytes each) fit in 10 MiB; from the 10th on, each is refused.
    expect(refused).toHaveLength(11);
    expect(refused[0]!.message).toMatch(/^cassette interaction not read: its aliases expand by 104\d{4} bytes, past the limit of 10485760 bytes \(limits\.max-document-bytes\) with the cassette's other aliases and bodies$/);
    expect(audit.files[0]!.format).toBe('anthropic-messages');
  });

  it('1,000 aliases of a 1 MB body (a 1.1 MB file) cost what the limit allows: with 64 MiB, 63 are read and 937 refused unread', async () => {
    const text = aliasCassette(1024 * 1024, 1000);
    const start = performance.now();
    const audit = await auditFiles({ 'c.yaml': text }, { limits: { 'max-document-bytes': 64 * 1024 * 1024 } });
    const ms = performance.now() - start;
    expect(findingsOf(audit, 'malformed-record')).toHaveLength(937);
    // Measured in one pass over the nodes, never expanded: seconds at most, even on a loaded machine.
    expect(ms).toBeLessThan(30_000);
  }, 60_000);
});
