import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertComment } from '../../src/github/comment.js';
import { commentMarker } from '../../src/github/artifacts/artifact-name.js';
import { restClient } from '../../src/github/octokit.js';
import type { Logger } from '../../src/logger.js';
import { FakeGitHub } from './fake-github.js';

// comment-mode: changes. The loopback GitHub records every request; the Azurite half is not used here.
let gh: FakeGitHub;
const lines: string[] = [];
const logger: Logger = { info: (m: string) => lines.push(m), warning: (m: string) => lines.push(`warning: ${m}`), debug: () => {}, error: (m: string) => lines.push(`error: ${m}`) } as unknown as Logger;

beforeAll(async () => {
  gh = new FakeGitHub(undefined as never);
  await gh.start();
});
afterAll(() => gh.stop());

describe('comment-mode: changes', () => {
  it('a second run that shows the same new and fixed findings edits nothing; a changed set or verdict updates the comment', async () => {
    gh.comments.set(7, []);
    const api = restClient('t0ken', gh.url);
    const marker = commentMarker('', 'nightly');
    const target = { owner: 'octo-org', repo: 'agent-app', issueNumber: 7, marker };
    const body = (text: string, state: string) => `${text}\n${marker}\n<!-- agent-trace-audit:state ${state} -->\n`;
    const writes = () => gh.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

    const first = await upsertComment(api, target, body('run 1 (12.1 s)', 'aaaa'), logger, { keep: '<!-- agent-trace-audit:state aaaa -->' });
    expect(first.kind).toBe('created');
    gh.requests.length = 0;
    // Same state, other text (a run link, a duration): left as it is.
    const second = await upsertComment(api, target, body('run 2 (11.9 s)', 'aaaa'), logger, { keep: '<!-- agent-trace-audit:state aaaa -->' });
    expect(second).toEqual({ kind: 'unchanged', url: first.url });
    expect(writes()).toEqual([]);
    expect(gh.comments.get(7)!.map((c) => c.body)).toEqual([body('run 1 (12.1 s)', 'aaaa')]);
    // Another state: updated in place.
    const third = await upsertComment(api, target, body('run 3', 'bbbb'), logger, { keep: '<!-- agent-trace-audit:state bbbb -->' });
    expect(third.kind).toBe('updated');
    expect(writes().length).toBe(1);
    expect(gh.comments.get(7)!.map((c) => c.body)).toEqual([body('run 3', 'bbbb')]);
  });

  it('two names keep two comments on one pull request', async () => {
    gh.comments.set(8, []);
    const api = restClient('t0ken', gh.url);
    for (const name of ['', 'nightly', 'smoke', 'nightly']) {
      const marker = commentMarker('', name);
      await upsertComment(api, { owner: 'octo-org', repo: 'agent-app', issueNumber: 8, marker }, `report of ${name || 'default'}\n${marker}\n`, logger);
    }
    expect(gh.comments.get(8)!.map((c) => c.body.split('\n')[0])).toEqual(['report of default', 'report of nightly', 'report of smoke']);
    expect(gh.comments.get(8)!.map((c) => c.body.split('\n')[1])).toEqual(['<!-- agent-trace-audit:comment -->', '<!-- agent-trace-audit:comment name=nightly -->', '<!-- agent-trace-audit:comment name=smoke -->']);
  });
});
