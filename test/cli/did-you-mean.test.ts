import { describe, expect, it } from 'vitest';
import { jsonl, tempTree } from '../helpers.js';
import { cli } from './run-cli.js';

describe('did you mean, beyond flags', () => {
  it('--input-format names the nearest format id', async () => {
    const root = tempTree({ 'a.jsonl': jsonl({ run_id: 'r', kind: 'llm' }) });
    const typo = await cli(['audit', 'a.jsonl', '--input-format', 'otlp-jsn'], root);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('not "otlp-jsn" (did you mean otlp-json?)');
    const far = await cli(['audit', 'a.jsonl', '--input-format', 'zzz'], root);
    expect(far.stderr).not.toContain('did you mean');
  });

  it('a configuration key and a rule id, through the CLI', async () => {
    const root = tempTree({ 'a.jsonl': jsonl({ run_id: 'r', kind: 'llm' }), 'agent-trace-audit.yml': 'fail_on: warning\nrules:\n  orphan-cal: off\n' });
    const run = await cli(['audit', 'a.jsonl'], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('fail_on: unknown key (did you mean "fail-on"?)');
    expect(run.stderr).toContain('rules.orphan-cal: unknown rule id "orphan-cal" (did you mean "orphan-call"?)');
  });
});
