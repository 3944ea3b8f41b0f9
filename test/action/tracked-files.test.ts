import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { trackedFiles } from '../../src/action/tracked-files.js';
import { tempTree } from '../helpers.js';

describe('trackedFiles: what the workspace committed', () => {
  it('lists the files in the git index, not those written afterwards nor ignored ones', async () => {
    const root = tempTree({ 'traces/a.jsonl': '{}\n', 'traces/b c.jsonl': '{}\n', '.gitignore': 'out/\n' });
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['add', '-A'], { cwd: root });
    mkdirSync(`${root}/out`);
    writeFileSync(`${root}/out/run.jsonl`, '{}\n');
    writeFileSync(`${root}/traces/new.jsonl`, '{}\n');
    expect([...(await trackedFiles(root))].sort()).toEqual(['.gitignore', 'traces/a.jsonl', 'traces/b c.jsonl']);
  });

  it('is empty without a checkout', async () => {
    expect((await trackedFiles(tempTree({ 'a.jsonl': '{}\n' }))).size).toBe(0);
  });
});
