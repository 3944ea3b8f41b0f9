import { describe, expect, it } from 'vitest';
import { artifactNameFor, checkRunIdentity, commentMarker, shardId, suiteReports } from '../../../src/github/artifacts/artifact-name.js';
import { auditTitle, nameId } from '../../../src/report/verdict/title.js';

describe('shard ids and artifact names', () => {
  it('a toJson(matrix) shard gives a readable id (values in key order) that is stable for the same text', () => {
    const a = shardId('{"os":"ubuntu-latest","node":20}');
    expect(a).toMatch(/^20-ubuntu-latest-[0-9a-f]{8}$/);
    expect(shardId('{"os":"ubuntu-latest","node":20}')).toBe(a);
    expect(shardId('{\n  "os": "ubuntu-latest",\n  "node": 20\n}').startsWith('20-ubuntu-latest-')).toBe(true);
  });

  it('characters the artifact service refuses never reach the name; alike-looking shards stay apart', () => {
    const name = artifactNameFor('agent-trace-audit', 'a/b:c*"d"<e>|f?\\g\r\n');
    expect(name).toMatch(/^agent-trace-audit-a-b-c-d-e-f-g-[0-9a-f]{8}$/);
    expect(shardId('a b')).not.toBe(shardId('a/b'));
    expect(artifactNameFor('agent-trace-audit', '')).toBe('agent-trace-audit');
    expect(shardId('///')).toMatch(/^[0-9a-f]{8}$/);
  });

  it('the comment marker names the shard only in per-shard mode', () => {
    expect(commentMarker('')).toBe('<!-- agent-trace-audit:comment -->');
    expect(commentMarker('linux')).toMatch(/^<!-- agent-trace-audit:comment shard=linux-[0-9a-f]{8} -->$/);
    expect(commentMarker('--> <img src=x>')).not.toContain('<img');
  });
});

describe('the name input', () => {
  it('is part of the artifact name, the comment marker and the check run, so two workflows keep theirs apart', () => {
    expect(artifactNameFor('agent-trace-audit', '', 'nightly')).toBe('agent-trace-audit-nightly');
    expect(artifactNameFor('agent-trace-audit', 'a', 'nightly')).toBe(`agent-trace-audit-nightly-${shardId('a')}`);
    expect(commentMarker('', 'nightly')).toBe('<!-- agent-trace-audit:comment name=nightly -->');
    expect(checkRunIdentity('', 'nightly')).toEqual({ name: 'agent-trace-audit (nightly)', marker: 'agent-trace-audit:check name=nightly' });
    expect(checkRunIdentity('', '')).toEqual({ name: 'agent-trace-audit', marker: 'agent-trace-audit:check' });
    expect(auditTitle('nightly')).toBe('agent-trace-audit (nightly)');
    // Only [A-Za-z0-9._-]: nothing can close the HTML comment or form markdown; a changed name keeps a hash of the original.
    expect(nameId('e2e --> <b>@team</b>')).toMatch(/^e2e-b-team-b-[0-9a-f]{8}$/);
    expect(nameId('a b')).not.toBe(nameId('a-b'));
  });

  it("one suite's reports are its own and its shards', never another suite's named `<base>-<name>`", () => {
    const base = 'agent-trace-audit';
    const shards = [artifactNameFor(base, '{"os":"linux"}'), artifactNameFor(base, '///')];
    const others = [artifactNameFor(base, '', 'nightly'), artifactNameFor(base, '', 'e2e-slow'), 'agent-traces-1', `${base}x`];
    const listed = [base, ...shards, ...others].map((name) => ({ name }));
    expect(suiteReports(listed, base).map((a) => a.name)).toEqual([base, ...shards]);
    const e2e = artifactNameFor(base, '', 'e2e');
    const e2eShard = artifactNameFor(base, 'linux', 'e2e');
    expect(suiteReports([e2e, e2eShard, ...others].map((name) => ({ name })), e2e).map((a) => a.name)).toEqual([e2e, e2eShard]);
  });
});
