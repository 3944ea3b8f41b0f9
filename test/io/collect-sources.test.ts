import { join } from 'node:path';
import { realpathSync, symlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectAll } from '../../src/io/collect-sources.js';
import { tempTree } from '../helpers.js';

describe('collectAll', () => {
  it('reads the working folder by globs and each source folder whole, shown as <prefix>/<path inside>', async () => {
    const work = tempTree({ 'local/a.jsonl': 'a\n', 'local/b.txt': 'b\n' });
    const one = tempTree({ 'run-a/t.jsonl': '1\n', 'notes.txt': 'x\n', 'deep/x/y.json.gz': 'z' });
    const two = tempTree({ 't.ndjson': '2\n' });
    const { inputs, skipped } = await collectAll(['local/*'], [{ root: one, prefix: 'agent-traces-1' }, { root: two, prefix: 'agent-traces-2' }], { root: work });
    expect(inputs.map((i) => i.display)).toEqual(['agent-traces-1/deep/x/y.json.gz', 'agent-traces-1/run-a/t.jsonl', 'agent-traces-2/t.ndjson', 'local/a.jsonl', 'local/b.txt']);
    expect(inputs.find((i) => i.display === 'agent-traces-2/t.ndjson')!.path).toBe(join(realpathSync(two), 't.ndjson'));
    expect(skipped).toEqual([]);
  });

  it('applies exclude patterns to the names shown; no specs reads the sources only', async () => {
    const one = tempTree({ 'a.jsonl': '1\n', 'skip/b.jsonl': '2\n' });
    const two = tempTree({ 'c.jsonl': '3\n' });
    const { inputs } = await collectAll([], [{ root: one, prefix: 'agent-traces-1' }, { root: two, prefix: 'agent-traces-2' }], {
      root: tempTree({ 'ignored.jsonl': 'x\n' }),
      exclude: ['agent-traces-1/skip/**', 'agent-traces-2/**'],
    });
    expect(inputs.map((i) => i.display)).toEqual(['agent-traces-1/a.jsonl']);
  });

  it('a second file under a name already read is skipped with a reason; a symlink out of a source is refused', async () => {
    const work = tempTree({ 'agent-traces-1/t.jsonl': 'workspace\n' });
    const one = tempTree({ 't.jsonl': 'artifact\n' });
    symlinkSync(join(work, 'agent-traces-1', 't.jsonl'), join(one, 'escape.jsonl'));
    const { inputs, skipped } = await collectAll(['agent-traces-1/t.jsonl'], [{ root: one, prefix: 'agent-traces-1' }], { root: work });
    expect(inputs.map((i) => [i.display, i.path])).toEqual([['agent-traces-1/t.jsonl', join(realpathSync(work), 'agent-traces-1', 't.jsonl')]]);
    expect(skipped).toEqual([
      { display: 'agent-traces-1/escape.jsonl', reason: 'refused: a symlink that leaves the workspace' },
      { display: 'agent-traces-1/t.jsonl', reason: 'refused: another file is already read under this name' },
    ]);
  });
});
