import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { tempTree } from '../../helpers.js';
import { runInProcess } from '../audit-cli.js';

describe('a trace path that is a symlink to .git/config or /proc/self/environ', () => {
  it('is refused, named or found in a folder, and nothing of the target is echoed', async () => {
    const root = tempTree({ 'real.jsonl': `${JSON.stringify({ run_id: 'r1', kind: 'llm', event: 'assistant_delta' })}\n` });
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://x-access-token:SENTINEL_GIT_CONFIG@github.com/o/r\n');
    symlinkSync('.git/config', join(root, 'git-config.jsonl'));
    symlinkSync('/proc/self/environ', join(root, 'environ.jsonl'));
    mkdirSync(join(root, 'traces'));
    symlinkSync('../.git/config', join(root, 'traces', 'a.jsonl'));
    symlinkSync('/proc/self/environ', join(root, 'traces', '::add-mask::b.jsonl'));

    let stdout = '';
    let stderr = '';
    const { runCli } = await import('../../../src/cli/main.js');
    process.env['ATA_HOSTILE_SENTINEL'] = 'SENTINEL_ENVIRON';
    try {
      const io = { stdout: (t: string) => (stdout += t), stderr: (t: string) => (stderr += t), cwd: root, env: { ...process.env } };
      expect(await runCli(['audit', 'git-config.jsonl', 'environ.jsonl', 'traces', 'real.jsonl', '--format', 'json', '--jobs', '1', '--allow-empty'], io)).toBe(0);
    } finally {
      delete process.env['ATA_HOSTILE_SENTINEL'];
    }
    const report = reportSchema.parse(JSON.parse(stdout));
    expect(report.files.map((f) => f.path)).toEqual(['real.jsonl']);
    expect(stderr).toBe(
      [
        'warning: skipped git-config.jsonl: refused: a symlink into .git',
        'warning: skipped environ.jsonl: refused: a symlink that leaves the workspace',
        'warning: skipped traces/::add-mask::b.jsonl: refused: a symlink that leaves the workspace',
        'warning: skipped traces/a.jsonl: refused: a symlink into .git',
        '',
      ].join('\n'),
    );
    for (const text of [stdout, stderr]) {
      expect(text).not.toContain('SENTINEL');
      expect(text).not.toContain('/proc/self/environ');
      expect(text).not.toContain('.git/config');
    }
  });

  it('the text report of the same run shows no target either', async () => {
    const root = tempTree({});
    symlinkSync('/proc/self/environ', join(root, 'environ.jsonl'));
    const run = await runInProcess(['audit', 'environ.jsonl', '--jobs', '1'], root);
    // Nothing left to audit is the nothing-audited verdict (exit 1) after the warning; no target is named.
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('warning: skipped environ.jsonl: refused: a symlink that leaves the workspace\n');
    expect(run.stdout).not.toContain('PATH=');
    expect(run.stdout.split('\n')[0]).toBe('⚠️ nothing audited: no trace file was found');
  });
});
