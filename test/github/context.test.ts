import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContext, runUrl } from '../../src/github/context.js';
import { tempTree } from '../helpers.js';

const env = (eventPath: string, extra: Record<string, string> = {}) => ({
  GITHUB_REPOSITORY: 'octo-org/agent-app',
  GITHUB_EVENT_PATH: eventPath,
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_RUN_ID: '77',
  GITHUB_WORKFLOW_REF: 'octo-org/agent-app/.github/workflows/agents.yml@refs/pull/42/merge',
  GITHUB_WORKSPACE: '/ws',
  ...extra,
});

describe('readContext', () => {
  it('reads a real pull_request payload', () => {
    const ctx = readContext(env('test/github/fixtures/pull_request.opened.json'));
    expect(ctx).toMatchObject({ owner: 'octo-org', repo: 'agent-app', runId: 77, workflowFile: 'agents.yml', workflowRun: undefined });
    expect(ctx.pullRequest).toEqual({ number: 42, baseSha: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b', baseRef: 'main', headSha: '5f0c3c0b9d6e5b3a2f1e0d9c8b7a6f5e4d3c2b1a' });
    expect(runUrl(ctx)).toBe('https://github.com/octo-org/agent-app/actions/runs/77');
    // GITHUB_SHA is the merge commit on pull_request events: kept apart from the head the check run goes on.
    expect(readContext(env('test/github/fixtures/pull_request.opened.json', { GITHUB_SHA: '1'.repeat(40) })).sha).toBe('1'.repeat(40));
    expect(ctx.sha).toBe('');
  });

  it('reads a workflow_run payload and tolerates hostile or missing fields', () => {
    const dir = tempTree({});
    const path = join(dir, 'event.json');
    writeFileSync(path, JSON.stringify({ workflow_run: { id: 9, head_sha: 'abc', head_branch: 'patch-1', pull_requests: [{ number: 5 }, { number: '6' }, null], head_repository: { full_name: 'forker/agent-app', owner: { login: 'forker' } }, __proto__: { id: 1 } } }));
    expect(readContext(env(path, { GITHUB_EVENT_NAME: 'workflow_run' })).workflowRun).toEqual({
      id: 9, headSha: 'abc', headBranch: 'patch-1', headOwner: 'forker', headRepo: 'forker/agent-app', prNumbers: [5], conclusion: '', workflowFile: '', pullRequests: [{ number: 5, baseSha: '', baseRef: '', headSha: '' }],
    });
    writeFileSync(path, '{"pull_request": {"number": "42"}}');
    expect(readContext(env(path)).pullRequest).toBeUndefined();
    writeFileSync(path, 'not json');
    expect(readContext(env(path)).pullRequest).toBeUndefined();
  });
});
