import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { tempTree } from '../../helpers.js';
import { liveCommandLines } from '../outputs/hostile-text.js';
import { hostileWorkspace } from './hostile-workspace.js';

const CLI = resolve('dist/cli.js');

/** The real bundled CLI in `cwd`, its time in milliseconds. */
function cli(args: string[], cwd: string): { code: number; stdout: string; stderr: string; ms: number } {
  const start = Date.now();
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' }, timeout: 60_000 });
  return { code: run.status ?? -1, stdout: run.stdout, stderr: run.stderr, ms: Date.now() - start };
}

describe('the bundled CLI reads nothing through a folder symlink that leaves the working folder', () => {
  it('audits only the real trace and warns once per refused path', () => {
    const { workspace } = hostileWorkspace();
    const run = cli(['audit', 'traces/**', 'out/**/*.jsonl', 'proc/env*', 'mid/link/secret.jsonl', 'real', '--format', 'json', '--jobs', '1'], workspace);
    expect(run.code, run.stderr).toBe(0);
    expect(reportSchema.parse(JSON.parse(run.stdout)).files.map((f) => f.path)).toEqual(['real/a.jsonl']);
    expect(run.stderr).toBe(
      [
        'warning: skipped traces: refused: a symlink into .git',
        'warning: skipped out: refused: a symlink that leaves the workspace',
        'warning: skipped proc: refused: a symlink that leaves the workspace',
        'warning: skipped mid/link/secret.jsonl: refused: a symlink that leaves the workspace',
        '',
      ].join('\n'),
    );
    for (const text of [run.stdout, run.stderr]) expect(text).not.toMatch(/SENTINEL|PATH=/);
  });

  it('refuses a configuration file that is a symlink to /dev/urandom at once, and one to /proc/self/status without echoing it', () => {
    const root = tempTree({ 't.jsonl': `${JSON.stringify({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'x' })}\n` });
    symlinkSync('/dev/urandom', join(root, 'agent-trace-audit.yml'));
    const random = cli(['audit', 't.jsonl'], root);
    expect([random.code, random.stdout, random.stderr]).toEqual([2, '', 'config: cannot read configuration file "agent-trace-audit.yml": a symlink that leaves the working folder\n']);
    expect(random.ms).toBeLessThan(5_000);
    const status = tempTree({ 't.jsonl': `${JSON.stringify({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'x' })}\n` });
    symlinkSync('/proc/self/status', join(status, 'agent-trace-audit.yml'));
    const proc = cli(['audit', 't.jsonl', '--config', 'agent-trace-audit.yml'], status);
    expect([proc.code, proc.stderr]).toEqual([2, 'config: cannot read configuration file "agent-trace-audit.yml": a symlink that leaves the working folder\n']);
    // Typed by the user, a device is still refused before a byte is read.
    const typed = cli(['audit', 't.jsonl', '--config', '/dev/zero'], status);
    expect([typed.code, typed.stderr]).toEqual([2, 'config: cannot read configuration file "/dev/zero": not a regular file\n']);
  });

  it('prints configuration keys that hold workflow commands as text, never as live commands', () => {
    const root = tempTree({
      't.jsonl': `${JSON.stringify({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'x' })}\n`,
      'a.yml': '"a\\n::error title=pwned::pwned": 1\n',
      'b.yml': 'rules:\n  "x\\n::add-mask::secret": off\n',
      'c.yml': 'fail-on: "\\n##[error]pwned"\n',
    });
    writeFileSync(join(root, 'd.yml'), 'limits:\n  "\\r::set-output name=x::y": 1\n');
    // a, b and d echo the key (guarded); c's value is not echoed at all.
    for (const [config, guarded] of [['a.yml', true], ['b.yml', true], ['c.yml', false], ['d.yml', true]] as const) {
      const run = cli(['audit', 't.jsonl', '--config', config], root);
      expect(run.code).toBe(2);
      expect(/^::stop-commands::[0-9a-f]{32}\n/.test(run.stderr), run.stderr).toBe(guarded);
      expect(liveCommandLines(run.stdout + run.stderr), run.stderr).toEqual([]);
    }
  });
});

describe('the bundled CLI seals and verifies nothing through a symlink that leaves the working folder or lands in .git', () => {
  it('seal: every refused input is one line naming the path as typed and the reason, exit 2, nothing written', () => {
    const { workspace } = hostileWorkspace();
    const cases: Array<[string, string]> = [
      ['traces/config', 'a symlink into .git'],
      ['out/secret.jsonl', 'a symlink that leaves the working folder'],
      ['mid/link/secret.jsonl', 'a symlink that leaves the working folder'],
      ['proc/environ', 'a symlink that leaves the working folder'],
      ['real', 'not a regular file'],
      ['/dev/zero', 'not a regular file'],
    ];
    for (const [input, reason] of cases) {
      const run = cli(['seal', input, '-o', 'sealed.jsonl'], workspace);
      expect([run.code, run.stdout, run.stderr]).toEqual([2, '', `refused: ${input}: ${reason}\n`]);
      expect(existsSync(join(workspace, 'sealed.jsonl'))).toBe(false);
    }
    for (const redact of [['--redact'], []]) {
      const run = cli(['seal', 'out/secret.jsonl', '-o', '-', ...redact], workspace);
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).not.toMatch(/SENTINEL/);
    }
    const real = cli(['seal', 'real/a.jsonl', '-o', 'sealed.jsonl'], workspace);
    expect(real.code, real.stderr).toBe(0);
  });

  it('verify: the sealed file, an artifact folder and --sources are refused the same way; an artifact whose files lead out counts them missing', () => {
    const { workspace, outside } = hostileWorkspace();
    // A real seal outside the workspace, linked in: verify reads none of it.
    expect(cli(['seal', 'secret.jsonl', '-o', 'secret.sealed.jsonl'], outside).code).toBe(0);
    for (const [input, reason] of [
      ['out/secret.sealed.jsonl', 'a symlink that leaves the working folder'],
      ['traces/config', 'a symlink into .git'],
      ['proc/environ', 'a symlink that leaves the working folder'],
      ['out', 'a symlink that leaves the working folder'],
      ['/dev/zero', 'neither a regular file nor a folder'],
    ] as const) {
      const run = cli(['verify', input], workspace);
      expect([run.code, run.stdout, run.stderr]).toEqual([2, '', `refused: ${input}: ${reason}\n`]);
    }
    // An artifact folder in the workspace whose sealed file is a symlink to the outside seal.
    mkdirSync(join(workspace, 'art'));
    const checkpoint = JSON.parse(readFileSync(join(outside, 'secret.sealed.jsonl.seal.json'), 'utf8')) as { final_digest: string };
    writeFileSync(join(workspace, 'art', 'seal-manifest.json'), JSON.stringify({ version: 1, files: [{ file: 'secret.jsonl', finalDigest: checkpoint.final_digest, sealed: 'link/secret.sealed.jsonl', checkpoint: 'link/secret.sealed.jsonl.seal.json' }] }));
    symlinkSync(outside, join(workspace, 'art', 'link'));
    const art = cli(['verify', 'art'], workspace);
    expect(art.code, art.stderr).toBe(1);
    expect(art.stdout.split('\n')[0]).toBe('missing: secret.jsonl (link/secret.sealed.jsonl: refused: a symlink that leaves the artifact)');
    const sources = cli(['verify', 'art', '--sources', 'out'], workspace);
    expect([sources.code, sources.stderr]).toEqual([2, 'refused: out: a symlink that leaves the working folder\n']);
    for (const text of [art.stdout, art.stderr, sources.stdout, sources.stderr]) expect(text).not.toMatch(/SENTINEL|GIT_SENTINEL|PATH=/);
  });
});
