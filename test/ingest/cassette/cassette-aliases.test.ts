import { describe, expect, it } from 'vitest';
import { auditFiles, findingsOf } from '../../helpers.js';
import { aliasCassette, aliasSize } from './alias-cassette.js';

describe('VCR cassettes: aliases count against limits.max-document-bytes before anything is read', () => {
  it('a 1 MB body aliased 20 times, past a 10 MiB limit: the cassette is one malformed-record naming the limit, nothing read', async () => {
    const text = aliasCassette(1024 * 1024, 20);
    expect(text.length).toBeLessThan(1.1 * 1024 * 1024);
    const audit = await auditFiles({ 'c.yaml': text }, { limits: { 'max-document-bytes': 10 * 1024 * 1024 } });
    expect(findingsOf(audit, 'malformed-record')).toEqual([
      { line: 1, callId: null, tool: null, runId: null, message: `cassette not read: its aliases expand it by ${20 * aliasSize(1024 * 1024)} bytes, past the limit of 10485760 bytes (limits.max-document-bytes)` },
    ]);
    expect(audit.files[0]!.format).toBe('anthropic-messages');
    expect(audit.files[0]!.toolCalls).toBe(0);
  });

  it('within the limit every aliased interaction is read (9 copies of the body in 10 MiB): one call, no malformed-record', async () => {
    const audit = await auditFiles({ 'c.yaml': aliasCassette(1024 * 1024, 9) }, { limits: { 'max-document-bytes': 10 * 1024 * 1024 } });
    expect(findingsOf(audit, 'malformed-record')).toEqual([]);
    // Ten responses carry the same call t1: kept once, read ten times.
    expect(audit.files[0]!.toolCalls).toBe(1);
    expect(audit.findings.map((f) => f.ruleId).sort()).toEqual(['catalog-missing', 'continued-while-outstanding', 'orphan-call']);
  });

  it('an alias inside the node it names (a YAML cycle the parser accepts) is refused, not followed', async () => {
    const text = [
      'interactions:',
      '- &loop',
      '  request:',
      `    body: '{"model":"claude","messages":[{"role":"user","content":"hi"}]}'`,
      '    uri: https://api.anthropic.com/v1/messages',
      '  response:',
      '    parsed_body: {content: [*loop]}',
      '',
    ].join('\n');
    const audit = await auditFiles({ 'c.yaml': text });
    expect(findingsOf(audit, 'malformed-record').map((f) => f.message)).toEqual(['cassette not read: an alias names a node that holds it, so it expands without end']);
  });

  it('nested aliases (a billion laughs) are measured, not expanded', async () => {
    const lines = ['interactions:', '- request:', '    body: x', '  response:', '    body: y', '- l0: &l0 "laugh"'];
    for (let i = 1; i <= 12; i += 1) lines.push(`- l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`);
    lines.push('- request:', '    body: *l12', '');
    const text = lines.join('\n');
    const start = performance.now();
    const audit = await auditFiles({ 'c.yaml': text });
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(findingsOf(audit, 'malformed-record').map((f) => f.message)).toEqual([`cassette not read: its aliases expand it by ${expectedLaughs()} bytes, past the limit of 536870912 bytes (limits.max-document-bytes)`]);
  });
});

/** Each `*lN` list item in the bomb: `*l12` stands for 10^12 copies of `"laugh"` (7 bytes); the lists' own aliases count too. */
function expectedLaughs(): number {
  // size(l0) = 7; size(lN) = 10 × size(lN-1). Aliases in the list: for each N in 1..12, ten `*lN-1` (10 × size(lN-1) = size(lN)), and one `*l12`.
  let total = 0;
  let size = 7;
  for (let n = 1; n <= 12; n += 1) {
    size *= 10;
    total += size;
  }
  return total + size;
}
