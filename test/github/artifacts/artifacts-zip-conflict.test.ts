import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { tempDir } from '../../helpers.js';
import { pushToMain, useActionHarness } from '../support/action-harness.js';

// The bundled Action (dist/index.js) reading an artifact whose zip holds `t.jsonl` both as a file and as a folder.
const DIRTY = 'examples/dirty';

const harness = useActionHarness();

describe('an artifact zip with a name that is both a file and a folder', () => {
  it('skips that entry with a warning that says so and audits the rest of the artifact', async () => {
    const orphan = new Uint8Array(readFileSync(`${DIRTY}/span-log-orphan.jsonl`));
    await harness.front.seed(900, 'agent-traces-x', {}, { bytes: { 't.jsonl': orphan, 't.jsonl/inner.jsonl': orphan, 'other.jsonl': new Uint8Array(readFileSync(`${DIRTY}/typed-events-unmatched.jsonl`)) } });
    const result = await harness.run(900, { baseline: 'off', artifacts: 'agent-traces-*', upload: 'false', comment: 'false' }, { workspace: tempDir('ata-audit-job-'), ...pushToMain() });
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
