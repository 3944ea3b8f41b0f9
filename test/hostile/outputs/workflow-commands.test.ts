import { join } from 'node:path';
import { existsSync, symlinkSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardCommands } from '../../../src/github/command-guard.js';
import { actionDefaults, runBundledAction, type ActionRun } from '../../github/run-action.js';
import { tempTree } from '../../helpers.js';
import { HOSTILE_FILE_NAMES, hiddenSecrets, hostileTrace } from './hostile-text.js';

/**
 * The commands the Actions runner would act on in a step's output: `::name …::data`
 * after leading blanks, `##[name]` anywhere in a line, and nothing while
 * `::stop-commands::<token>` is in force until the line `::<token>::`.
 */
function runnerCommands(output: string): Array<{ name: string; data: string; line: string }> {
  const found: Array<{ name: string; data: string; line: string }> = [];
  let stopToken: string | null = null;
  for (const raw of output.split(/\r\n|\r|\n/)) {
    const line = raw.trimStart();
    if (stopToken !== null) {
      if (line === `::${stopToken}::`) stopToken = null;
      continue;
    }
    const v2 = /^::([A-Za-z-]+)(?:[ \t][^:]*)?::(.*)$/.exec(line);
    if (v2) {
      found.push({ name: v2[1]!, data: v2[2]!, line: raw });
      if (v2[1] === 'stop-commands') stopToken = v2[2]!;
      continue;
    }
    const v1 = /##\[([A-Za-z-]+)[^\]]*\](.*)$/.exec(raw);
    if (v1) found.push({ name: `##[${v1[1]}]`, data: v1[2]!, line: raw });
  }
  return found;
}

const unescapeData = (data: string) => data.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

describe('guardCommands: plain log text never becomes a workflow command', () => {
  it('leaves ordinary text alone', () => {
    expect(guardCommands('found 3 trace file(s): native-jsonl')).toBe('found 3 trace file(s): native-jsonl');
    expect(guardCommands('a::b is fine mid-line')).toBe('a::b is fine mid-line');
  });

  it('wraps text that holds a command line (any line, leading blanks too) or the ##[ form in stop-commands with a fresh token', () => {
    for (const text of ['::add-mask::x', 'read\n  ::error::x', 'x\r::stop-commands::t', 'see ##[add-mask]y']) {
      const guarded = guardCommands(text, () => 'tok0');
      expect(guarded).toBe(`::stop-commands::tok0\n${text}\n::tok0::`);
      expect(runnerCommands(guarded).map((c) => c.name)).toEqual(['stop-commands']);
    }
  });

  it('never uses a token that occurs in the text (the text could not end the guard early)', () => {
    const tokens = ['aaaa', 'bbbb'];
    const guarded = guardCommands('::aaaa::\n::add-mask::x', () => tokens.shift()!);
    expect(guarded).toBe('::stop-commands::bbbb\n::aaaa::\n::add-mask::x\n::bbbb::');
    expect(runnerCommands(guarded).map((c) => c.name)).toEqual(['stop-commands']);
  });

  it('uses a random 128-bit token by default', () => {
    const a = /^::stop-commands::([0-9a-f]{32})\n/.exec(guardCommands('::error::x'))?.[1];
    const b = /^::stop-commands::([0-9a-f]{32})\n/.exec(guardCommands('::error::x'))?.[1];
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });
});

describe('the bundled Action on hostile file names and trace text', () => {
  let run: ActionRun;
  let workspace: string;

  beforeAll(async () => {
    if (!existsSync('dist/index.js')) throw new Error('dist/index.js is missing: run `npm run build`');
    workspace = tempTree(Object.fromEntries(HOSTILE_FILE_NAMES.map((name) => [join('traces', name), hostileTrace()])));
    symlinkSync('/proc/self/environ', join(workspace, 'traces', '::add-mask::z\n::error::w.jsonl'));
    run = await runBundledAction({
      workspace,
      inputs: { ...actionDefaults(''), traces: 'traces', comment: 'false', upload: 'false', seal: 'false', baseline: 'off' },
      eventName: 'push',
      event: { ref: 'refs/heads/main', after: 'a'.repeat(40) },
      runId: 7,
      apiUrl: 'http://127.0.0.1:9',
      resultsUrl: 'http://127.0.0.1:9',
      repository: 'octo-org/agent-app',
      workflowRef: 'octo-org/agent-app/.github/workflows/agents.yml@refs/heads/main',
    });
  }, 60_000);

  it('fails the step on the findings, with annotations capped and a note of what was not shown', () => {
    expect(run.code).toBe(1);
    const commands = runnerCommands(run.stdout);
    expect(commands.filter((c) => c.name === 'error')).toHaveLength(9); // 8 annotations + the failure message
    expect(run.stdout).toMatch(/\d+ finding\(s\) not shown as annotations/);
  });

  it('the runner sees only annotations and the failure: no add-mask, stop-commands, set-output, ##[…] from a trace', () => {
    const names = new Set(runnerCommands(run.stdout).map((c) => c.name));
    expect([...names].every((name) => ['error', 'warning', 'notice', 'debug'].includes(name)), [...names].join(', ')).toBe(true);
  });

  it('annotation text and file names are escaped per the toolkit: the hostile text is there, as data', () => {
    const errors = runnerCommands(run.stdout).filter((c) => c.name === 'error');
    const data = errors.map((c) => unescapeData(c.data)).join('\n');
    expect(data).toContain("'::add-mask::x'");
    expect(run.stdout).toContain('file=traces/%3A%3Aadd-mask%3A%3Ax.jsonl');
    expect(run.stdout).not.toMatch(/file=[^,:]*::/);
  });

  it('a refused symlink with a hostile name is a warning whose text is escaped data', () => {
    expect(run.stdout).toContain('::warning::skipped traces/::add-mask::z ::error::w.jsonl: refused: a symlink that leaves the workspace\n');
    expect(run.stdout).not.toContain('PATH=');
  });

  it('no secret reaches the log, the outputs or the job summary', () => {
    for (const secret of hiddenSecrets().mustNotAppear) {
      expect(run.stdout).not.toContain(secret);
      expect(run.summary).not.toContain(secret);
      expect(JSON.stringify(run.outputs)).not.toContain(secret);
    }
  });
});
