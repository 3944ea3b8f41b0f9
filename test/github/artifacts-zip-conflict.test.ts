import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/report/schema.js';
import { tempDir } from '../helpers.js';
import type { Azurite } from './azurite.js';
import type { FakeGitHub } from './fake-github.js';
import { actionDefaults, runBundledAction } from './run-action.js';
import type { ArtifactFront } from './support/artifact-front.js';
import { startArtifactHarness, stopArtifactHarness } from './support/artifact-harness.js';

// The bundled Action (dist/index.js) reading an artifact whose zip holds `t.jsonl` both as a file and as a folder.
const TOKEN = 'ghs_loopbackTestToken000000000000000000';
const DIRTY = 'examples/dirty';

let azurite: Azurite;
let gh: FakeGitHub;
let front: ArtifactFront;

beforeAll(async () => {
  ({ azurite, gh, front } = await startArtifactHarness());
}, 60_000);

afterAll(() => stopArtifactHarness({ azurite, gh, front }));

describe('an artifact zip with a name that is both a file and a folder', () => {
  it('skips that entry with a warning that says so and audits the rest of the artifact', async () => {
    const orphan = new Uint8Array(readFileSync(`${DIRTY}/span-log-orphan.jsonl`));
    await front.seed(900, 'agent-traces-x', {}, { bytes: { 't.jsonl': orphan, 't.jsonl/inner.jsonl': orphan, 'other.jsonl': new Uint8Array(readFileSync(`${DIRTY}/typed-events-unmatched.jsonl`)) } });
    gh.currentRunId = 900;
    const result = await runBundledAction({
      workspace: tempDir('ata-audit-job-'),
      inputs: { ...actionDefaults(TOKEN), baseline: 'off', artifacts: 'agent-traces-*', upload: 'false', comment: 'false' },
      eventName: 'push',
      event: { ref: 'refs/heads/main', after: 'a'.repeat(40) },
      runId: 900,
      apiUrl: front.url,
      resultsUrl: front.url,
      repository: 'octo-org/agent-app',
      workflowRef: 'octo-org/agent-app/.github/workflows/agents.yml@refs/heads/main',
    });
    expect(result.stdout).toContain(
      '::warning::artifact "agent-traces-x": 1 zip entry was skipped because the name is both a file and a folder in the zip, or names a file twice: "t.jsonl"; the rest of the artifact is audited',
    );
    expect(result.stdout).not.toContain('could not download artifact');
    // The dirty traces have error findings: the rest of the artifact was audited and fails the job.
    expect(result.code).toBe(1);
    const json = reportSchema.parse(JSON.parse(readFileSync(result.outputs['report-json']!, 'utf8')));
    expect(json.files.map((f) => f.path).sort()).toEqual(['agent-traces-x/other.jsonl', 'agent-traces-x/t.jsonl/inner.jsonl']);
    expect(json.artifacts?.map((a) => [a.name, a.files])).toEqual([['agent-traces-x', 2]]);
  }, 120_000);
});
