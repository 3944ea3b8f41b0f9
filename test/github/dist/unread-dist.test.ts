import { describe, expect } from 'vitest';
import { tempTree } from '../../helpers.js';
import { itCorpus } from '../../public-corpus.js';
import { UNREAD_CORPUS, UNREAD_FILES, UNREAD_HEADLINE, unreadFolder } from '../../report/unread-folder.js';
import { PR_EVENT, useActionHarness } from '../support/action-harness.js';

// Issue 44, through the bundled Action (dist/index.js) against the loopback GitHub: the folder of
// eleven real public traces, seven not read, with a README and an image (test/report/unread-folder.ts).
const harness = useActionHarness();
const HEAD = (PR_EVENT['pull_request'] as { head: { sha: string } }).head.sha;

const WORDS: Record<string, string> = {
  'unknown-format': 'unknown format: no format reads it',
  unreadable: 'unreadable: no record could be read (its malformed-record or truncated-tail finding says why)',
  'no-records': 'no records came out of it',
};
/** The first screen's list, as the comment, the job summary and the check run show it. */
const LISTED = [
  '**7 of 11 trace files not read (3 unknown format, 2 unreadable, 2 no records):**',
  '',
  ...UNREAD_FILES.map(([file, reason, format]) => `- \`traces/${file}\`: ${WORDS[reason]}${format ? ` (read as \`${format}\`)` : ''}`),
  '',
  '**2 files matched that are not a trace (not counted):**',
  '',
  '- `traces/README.md`: text that is not JSON or YAML',
  '- `traces/diagram.png`: a PNG image',
].join('\n');

describe('the bundled Action on a folder most of whose files are not read', () => {
  itCorpus('passes with the files not read leading the title, listed on the first screen; the check run is neutral; output unread-files', UNREAD_CORPUS, async () => {
    const workspace = tempTree(unreadFolder());
    harness.gh.comments.set(42, []);
    const result = await harness.run(701, { traces: 'traces/**', baseline: 'off', upload: 'false' }, { workspace });
    expect(result.code).toBe(0);
    expect(result.outputs).toMatchObject({ conclusion: 'neutral', verdict: UNREAD_HEADLINE, 'unread-files': '7', errors: '0', warnings: '5', notes: '8' });
    const comment = harness.gh.comments.get(42)!.filter((c) => c.user.login === 'github-actions[bot]').at(-1)!.body;
    const lines = comment.split('\n');
    expect(lines[0]).toBe(`## agent-trace-audit: ${UNREAD_HEADLINE}`);
    // Right under the line of counts: the list, before anything else.
    expect(lines.slice(4, 4 + LISTED.split('\n').length).join('\n')).toBe(LISTED);
    expect(result.summary).toContain(LISTED);
    const [check] = harness.gh.checks.runs.filter((r) => r.head_sha === HEAD && r.name === 'agent-trace-audit');
    expect([check?.conclusion, check?.output.title]).toEqual(['neutral', UNREAD_HEADLINE]);
    expect(check?.output.summary).toContain(LISTED);
  });

  itCorpus('fail-on-unread: true fails the job on them, ❌ leading the same line; the check run fails', UNREAD_CORPUS, async () => {
    const workspace = tempTree(unreadFolder());
    const result = await harness.run(702, { traces: 'traces/**', baseline: 'off', upload: 'false', comment: 'false', 'fail-on-unread': 'true' }, { workspace });
    const failing = UNREAD_HEADLINE.replace(/^⚠️/, '❌');
    expect(result.code).toBe(1);
    expect(result.outputs).toMatchObject({ conclusion: 'failure', verdict: failing, 'unread-files': '7' });
    expect(result.stdout).toContain(`::error::agent-trace-audit: ${failing}; failing on trace files not read (fail-on-unread is true)`);
    const check = harness.gh.checks.runs.filter((r) => r.head_sha === HEAD && r.name === 'agent-trace-audit').at(-1);
    expect(check?.conclusion).toBe('failure');
  });
});
