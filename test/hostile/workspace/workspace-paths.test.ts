import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInputs } from '../../../src/io/collect.js';
import { confine, readConfinedFile } from '../../../src/io/confine.js';
import { tempDir, tempTree } from '../../helpers.js';

import { hostileWorkspace, TRACE } from './hostile-workspace.js';

describe('collectInputs: a folder symlink anywhere on a path is followed only inside the workspace', () => {
  it('refuses a glob base, a named folder and a middle folder that lead into .git, out of the workspace or into /proc, once each', async () => {
    const { workspace } = hostileWorkspace();
    const specs = ['traces/**', 'out/**/*.jsonl', 'proc/**', 'proc/env*', 'traces', 'out', 'mid/link/secret.jsonl', 'real/*.jsonl'];
    const { inputs, skipped } = await collectInputs(specs, { root: workspace, strict: false });
    expect(inputs.map((i) => i.display)).toEqual(['real/a.jsonl']);
    expect(skipped).toEqual([
      { display: 'traces', reason: 'refused: a symlink into .git' },
      { display: 'out', reason: 'refused: a symlink that leaves the workspace' },
      { display: 'proc', reason: 'refused: a symlink that leaves the workspace' },
      { display: 'proc', reason: 'refused: a symlink that leaves the workspace' },
      { display: 'traces', reason: 'refused: a symlink into .git' },
      { display: 'out', reason: 'refused: a symlink that leaves the workspace' },
      { display: 'mid/link/secret.jsonl', reason: 'refused: a symlink that leaves the workspace' },
    ]);
  });

  it('in the Action, a file named outside the workspace or inside .git is refused too', async () => {
    const { workspace, outside } = hostileWorkspace();
    const { inputs, skipped } = await collectInputs([join(outside, 'secret.jsonl'), '.git/logs/x.jsonl', '/etc/hostname'], { root: workspace, strict: false });
    expect(inputs).toEqual([]);
    expect(skipped.map((s) => s.reason)).toEqual(['refused: outside the workspace', 'refused: inside .git', 'refused: outside the workspace']);
  });

  it('on the CLI, a path typed outside the working folder is read (a file when it is regular, a folder within itself), a symlink inside it is not followed out', async () => {
    const { workspace, outside } = hostileWorkspace();
    const { inputs, skipped } = await collectInputs([join(outside, 'secret.jsonl'), join(outside, 'deep'), 'mid/link/secret.jsonl', 'out/**/*.jsonl'], { root: workspace, strict: false, trustNamed: true });
    expect(inputs.map((i) => i.path)).toEqual([join(outside, 'deep', 'more.jsonl'), join(outside, 'secret.jsonl')]);
    expect(skipped).toEqual([
      { display: 'mid/link/secret.jsonl', reason: 'refused: a symlink that leaves the workspace' },
      { display: 'out', reason: 'refused: a symlink that leaves the workspace' },
    ]);
  });

  it('a folder the CLI user typed outside keeps its files inside it', async () => {
    const elsewhere = tempTree({ 'x.jsonl': TRACE });
    const beyond = tempTree({ 'y.jsonl': TRACE });
    symlinkSync(join(beyond, 'y.jsonl'), join(elsewhere, 'y.jsonl'));
    const cwd = tempDir();
    const { inputs, skipped } = await collectInputs([elsewhere], { root: cwd, strict: false, trustNamed: true });
    expect(inputs.map((i) => i.path)).toEqual([join(elsewhere, 'x.jsonl')]);
    expect(skipped.map((s) => s.reason)).toEqual(['refused: a symlink that leaves the workspace']);
  });
});

describe('confine and readConfinedFile: the one rule', () => {
  it('checks the real path of the whole path, and the type', () => {
    const { workspace } = hostileWorkspace();
    expect(confine(join(workspace, 'real', 'a.jsonl'), { root: workspace }, 'file')).toEqual({ real: join(workspace, 'real', 'a.jsonl') });
    expect(confine(join(workspace, 'real'), { root: workspace }, 'file')).toEqual({ refused: 'refused: not a regular file' });
    expect(confine(join(workspace, 'proc', 'status'), { root: workspace }, 'file')).toEqual({ refused: 'refused: a symlink that leaves the workspace' });
    expect(confine(join(workspace, 'traces', 'config'), { root: workspace }, 'file')).toEqual({ refused: 'refused: a symlink into .git' });
    expect(confine(join(workspace, 'nothing'), { root: workspace }, 'file')).toEqual({ refused: 'no such file or directory', missing: true });
    // Named outside (root null): only the type counts.
    expect(confine('/dev/urandom', { root: null }, 'file')).toEqual({ refused: 'refused: not a regular file' });
  });

  it('refuses a device, a FIFO and a file over the cap before reading, and stops a /proc read at the cap', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'big'), Buffer.alloc(2048));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(readConfinedFile(join(dir, 'fifo'), { root: dir }, 1024)).toEqual({ kind: 'refused', refused: 'refused: not a regular file' });
    expect(readConfinedFile('/dev/urandom', { root: null }, 1024)).toEqual({ kind: 'refused', refused: 'refused: not a regular file' });
    expect(readConfinedFile(join(dir, 'big'), { root: null }, 1024)).toEqual({ kind: 'refused', refused: 'refused: 2048 bytes, larger than the limit of 1024 bytes' });
    // /proc/self/status states a size of 0 and holds more than 16 bytes.
    expect(readConfinedFile('/proc/self/status', { root: null }, 16)).toEqual({ kind: 'refused', refused: 'refused: larger than the limit of 16 bytes' });
    const small = readConfinedFile('/proc/self/status', { root: null }, 1024 * 1024);
    expect(small.kind === 'bytes' && small.bytes.toString('utf8').startsWith('Name:')).toBe(true);
  });
});
