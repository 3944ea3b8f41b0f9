import { describe, expect, it } from 'vitest';
import { buildCheckpoint, formatCheckpoint, githubProvenance, parseCheckpoint } from '../../src/seal/index.js';

const FACTS = { mode: 'jcs' as const, records: 2, finalDigest: 'a'.repeat(64), sealedSha256: 'b'.repeat(64), sourceSha256: 'c'.repeat(64) };
const ACTIONS = {
  GITHUB_ACTIONS: 'true',
  GITHUB_REPOSITORY: 'octo/trace-lab',
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_RUN_ID: '9876543210',
  GITHUB_RUN_ATTEMPT: '3',
};

describe('checkpoint', () => {
  it('has no environment fields outside GitHub Actions and is the same text every time', () => {
    const text = formatCheckpoint(buildCheckpoint(FACTS, { GITHUB_REPOSITORY: 'octo/trace-lab', HOME: '/home/x' }));
    expect(text).toBe(
      `{\n  "format": "agent-trace-audit-seal",\n  "version": 1,\n  "canonical": "jcs",\n  "records": 2,\n  "final_digest": "${'a'.repeat(64)}",\n  "sealed_sha256": "${'b'.repeat(64)}",\n  "source_sha256": "${'c'.repeat(64)}"\n}\n`,
    );
    expect(formatCheckpoint(buildCheckpoint(FACTS, {}))).toBe(text);
  });

  it('records repository, commit, run id and attempt in GitHub Actions, and round-trips', () => {
    const checkpoint = buildCheckpoint(FACTS, ACTIONS);
    expect(checkpoint.github).toEqual({ repository: 'octo/trace-lab', commit: ACTIONS.GITHUB_SHA, run_id: '9876543210', run_attempt: '3' });
    expect(parseCheckpoint(formatCheckpoint(checkpoint), 'cp.json')).toEqual(checkpoint);
  });

  it('leaves out GitHub values that are missing or malformed', () => {
    expect(githubProvenance({ GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'a/b\n[x](y)', GITHUB_RUN_ID: '12' })).toEqual({ run_id: '12' });
    expect(githubProvenance({ ...ACTIONS, GITHUB_ACTIONS: 'false' })).toBeUndefined();
  });

  it.each([
    ['not json', 'cp.json: the checkpoint is not JSON'],
    ['[]', 'cp.json: not a seal checkpoint of version 1: the top level: Invalid input: expected object, received array'],
    [JSON.stringify({ ...buildCheckpoint(FACTS, {}), version: 2 }), 'cp.json: not a seal checkpoint of version 1: version: Invalid input: expected 1'],
    [JSON.stringify({ ...buildCheckpoint(FACTS, {}), final_digest: 'A'.repeat(64) }), 'cp.json: not a seal checkpoint of version 1: final_digest: must be 64 lowercase hex digits'],
    [JSON.stringify({ ...buildCheckpoint(FACTS, {}), records: -1 }), 'cp.json: not a seal checkpoint of version 1: records: Too small: expected number to be >=0'],
    [JSON.stringify({ ...buildCheckpoint(FACTS, {}), extra: 1 }), 'cp.json: not a seal checkpoint of version 1: the top level: Unrecognized key: "extra"'],
  ])('refuses %s', (text, message) => {
    expect(() => parseCheckpoint(text, 'cp.json')).toThrow(expect.objectContaining({ code: 'checkpoint-invalid', message }));
  });
});
