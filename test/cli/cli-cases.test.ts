import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, tempTree } from '../helpers.js';
import { runBundle } from './run-cli.js';
import { corpusRoot, itCorpus } from '../public-corpus.js';

const CLI = resolve('dist/cli.js');
const SESSION = readFileSync('test/fixtures/replay/session-dirty.jsonl');
const SCOPE = readFileSync('test/fixtures/replay/scope.json');
const SEALED = readFileSync('test/fixtures/seal/sealed.jsonl');
const orphan = jsonl({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'grep' }, { run_id: 'r', kind: 'llm' });
const COMMANDS = ['audit', 'replay', 'scope', 'seal', 'verify', 'merge', 'run', 'receive', 'formats'];

/** Exit code and first line of stderr (or stdout when stderr is empty) of `node dist/cli.js …`. */
function first(args: string[], cwd: string): [number | null, string] {
  const run = runBundle(args, cwd);
  return [run.code, (run.stderr || run.stdout).split('\n')[0]!];
}

describe('help for every command (dist/cli.js)', () => {
  for (const name of COMMANDS) {
    it(`${name} --help and help ${name}: what it does, every flag with its default, an example; exit 0`, () => {
      const help = runBundle([name, '--help'], '.');
      expect([help.code, help.stderr]).toEqual([0, '']);
      expect(help.stdout.split('\n')[0]).toMatch(new RegExp(`^agent-trace-audit ${name}: \\S`));
      expect(help.stdout).toContain(`\nusage: agent-trace-audit ${name} `);
      const flags = help.stdout.slice(help.stdout.indexOf('\nflags:\n'), help.stdout.indexOf('\nexample')).split('\n').filter((line) => /^ {2}(-\w, )? *--/.test(line));
      expect(flags.length).toBeGreaterThanOrEqual(2);
      for (const line of flags) if (!line.includes('--help')) expect(line, line).toMatch(/\(default: .+\)$/);
      // Every example line is indented; one at least runs this very command (verify's first downloads the artifact).
      const examples = help.stdout.slice(help.stdout.search(/\nexamples?:\n/)).split('\n').slice(2).filter((l) => l !== '');
      expect(examples.length).toBeGreaterThanOrEqual(1);
      for (const line of examples) expect(line, line).toMatch(/^ {2}\S/);
      expect(examples.some((l) => l.includes(`agent-trace-audit ${name} `) || l.endsWith(`agent-trace-audit ${name}`))).toBe(true);
      expect(runBundle(['help', name], '.').stdout).toBe(help.stdout);
      expect(runBundle([name, '-h'], '.').stdout).toBe(help.stdout);
    });
  }

  it('the command list names every command; `help nope` suggests the nearest', () => {
    const root = tempTree({});
    const help = runBundle(['--help'], root);
    expect(help.code).toBe(0);
    for (const name of COMMANDS) expect(help.stdout).toMatch(new RegExp(`\\n {2}${name} +\\S`));
    expect(first(['help', 'sael'], root)).toEqual([2, 'usage: unknown command "sael": did you mean seal? (commands: audit, replay, scope, seal, verify, merge, run, receive, formats)']);
    expect(first([], root)).toEqual([2, `agent-trace-audit ${JSON.parse(readFileSync('package.json', 'utf8')).version}: audit the tool-call traces of AI agents`]);
  });
});

describe('one error vocabulary (dist/cli.js)', () => {
  const root = () => tempTree({ 't.jsonl': orphan, 'session.jsonl': SESSION, 'scope.json': SCOPE, 'sealed.jsonl': SEALED });

  it.each([
    [['audit', 't.jsonl', '--formt', 'json'], 'usage: unknown flag --formt: did you mean --format?'],
    [['audit', 't.jsonl', '--fial-on', 'note'], 'usage: unknown flag --fial-on: did you mean --fail-on?'],
    [['seal', 't.jsonl', '--froce'], 'usage: unknown flag --froce: did you mean --force?'],
    [['verify', 'sealed.jsonl', '--chekpoint', 'x'], 'usage: unknown flag --chekpoint: did you mean --checkpoint?'],
    [['replay', 'session.jsonl', '--fail'], 'usage: unknown flag --fail: did you mean --fail-on?'],
    [['audit', 't.jsonl', '--zzzzzz'], 'usage: unknown flag --zzzzzz'],
    [['run', '--prot', '0', '--', 'true'], 'usage: unknown flag --prot: did you mean --port?'],
    [['receive', '--otu', 'spans.jsonl'], 'usage: unknown flag --otu: did you mean --out?'],
    [['audit', 't.jsonl', '--format', 'sarf'], 'usage: --format must be one of text, json, markdown, html, sarif, not "sarf" (did you mean sarif?)'],
    [['adit', 't.jsonl'], 'usage: unknown command "adit": did you mean audit? (commands: audit, replay, scope, seal, verify, merge, run, receive, formats)'],
  ])('%j exits 2: %s', (args, line) => {
    const run = runBundle(args, root());
    expect([run.code, run.stdout, run.stderr.split('\n')[0]]).toEqual([2, '', line]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('a bad --output path is a one-line user error with a stable code, before anything is audited', () => {
    for (const format of ['text', 'json', 'sarif']) {
      expect(first(['audit', 't.jsonl', '--format', format, '--output', '/nope/r.json'], root())).toEqual([2, 'unwritable: /nope/r.json: cannot write: no such file or folder']);
    }
    expect(first(['audit', 't.jsonl', '-o', 't.jsonl/r.json'], root())).toEqual([2, 'unwritable: t.jsonl/r.json: cannot write: a part of the path is not a folder']);
    expect(first(['merge', 'r.json', '-o', '/nope/m.json'], root())).toEqual([2, 'unwritable: /nope/m.json: cannot write: no such file or folder']);
  });

  it('a missing file is the same code and message from every command', () => {
    const line = 'no-such-path: no such file or directory: "missing.jsonl"';
    for (const args of [['audit', 'missing.jsonl'], ['verify', 'missing.jsonl'], ['seal', 'missing.jsonl'], ['replay', 'missing.jsonl'], ['scope', 'missing.jsonl', 'scope.json'], ['merge', 'missing.jsonl']]) {
      expect(first(args, root()), args.join(' ')).toEqual([2, line]);
    }
    expect(first(['verify', 'sealed.jsonl', '--checkpoint', 'missing.jsonl'], root())).toEqual([2, line]);
  });

  it('--debug adds the stack of a user error; without it, one line', () => {
    const plain = runBundle(['audit', 't.jsonl', '-o', '/nope/r.json'], root());
    expect(plain.stderr).toBe('unwritable: /nope/r.json: cannot write: no such file or folder\n');
    const debug = runBundle(['audit', 't.jsonl', '-o', '/nope/r.json', '--debug'], root());
    expect(debug.stderr.split('\n')[0]).toBe('unwritable: /nope/r.json: cannot write: no such file or folder');
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});

describe('audit, replay and scope share --fail-on, exit codes and the finding shape (dist/cli.js)', () => {
  const root = () => tempTree({ 'session.jsonl': SESSION, 'scope.json': SCOPE });

  it('replay: as ToolReplay any finding fails by default (a warning and a note here); --fail-on warning or note fails; never passes', () => {
    expect(first(['replay', 'session.jsonl'], root())).toEqual([1, 'calls: 6']);
    expect(first(['replay', 'session.jsonl', '--fail-on', 'warning'], root())).toEqual([1, 'calls: 6']);
    expect(first(['replay', 'session.jsonl', '--fail-on', 'note'], root())).toEqual([1, 'calls: 6']);
    expect(first(['replay', 'session.jsonl', '--fail-on', 'never'], root())).toEqual([0, 'calls: 6']);
    expect(first(['replay', 'session.jsonl', '--fail-on', 'notes'], root())).toEqual([2, 'usage: --fail-on must be one of error, warning, note, never, not "notes" (did you mean note?)']);
  });

  it('scope: permission-overreach is an error: exit 1 by default, 0 with --fail-on never', () => {
    expect(first(['scope', 'session.jsonl', 'scope.json'], root())).toEqual([1, 'calls: 6']);
    expect(first(['scope', 'session.jsonl', 'scope.json', '--fail-on', 'never'], root())).toEqual([0, 'calls: 6']);
  });

  it('the JSON findings of replay, scope and audit have ruleId, severity, file and line', () => {
    const cwd = root();
    const replay = JSON.parse(runBundle(['replay', 'session.jsonl', '--format', 'json'], cwd).stdout) as { findings: Array<Record<string, unknown>> };
    const scope = JSON.parse(runBundle(['scope', 'session.jsonl', 'scope.json', '--format', 'json'], cwd).stdout) as { findings: Array<Record<string, unknown>> };
    const audit = JSON.parse(runBundle(['audit', 'session.jsonl', '--format', 'json', '--fail-on', 'never'], cwd).stdout) as { findings: Array<Record<string, unknown>> };
    const shape = (f: Record<string, unknown>) => [f['ruleId'], f['severity'], f['file'], f['line']];
    expect(replay.findings.map(shape)).toEqual([
      ['redundant-call', 'note', 'session.jsonl', 3],
      ['non-determinism', 'warning', 'session.jsonl', 6],
    ]);
    expect(scope.findings.map(shape)).toEqual([['permission-overreach', 'error', 'session.jsonl', 5]]);
    // audit reads the same transcript: the same two replay findings, in the same shape.
    expect(audit.findings.filter((f) => f['ruleId'] === 'redundant-call' || f['ruleId'] === 'non-determinism').map(shape)).toEqual([
      ['redundant-call', 'note', 'session.jsonl', 3],
      ['non-determinism', 'warning', 'session.jsonl', 6],
    ]);
  });
});

describe('audit output (dist/cli.js)', () => {
  it('--format sarif writes SARIF 2.1.0 with the findings of --format json', () => {
    const cwd = tempTree({ 't.jsonl': orphan });
    const sarif = runBundle(['audit', 't.jsonl', '--format', 'sarif'], cwd);
    expect([sarif.code, sarif.stdout.split('\n')[0]]).toEqual([1, '{']);
    const log = JSON.parse(sarif.stdout) as { version: string; runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }> }> }> };
    const json = JSON.parse(runBundle(['audit', 't.jsonl', '--format', 'json'], cwd).stdout) as { findings: Array<{ ruleId: string; file: string; line: number }> };
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0]!.results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.artifactLocation.uri, r.locations[0]!.physicalLocation.region.startLine])).toEqual(json.findings.map((f) => [f.ruleId, f.file, f.line]));
    expect(runBundle(['audit', 't.jsonl', '--format', 'sarif', '-o', 'r.sarif'], cwd).code).toBe(1);
    expect(readFileSync(join(cwd, 'r.sarif'), 'utf8')).toBe(sarif.stdout);
  });

  it('the text table shortens a long location from the left, keeping file:line, relative to the working folder', () => {
    const deep = 'recordings/nightly-2026-09-07/agent-suite/claude-code/session-with-a-long-name.jsonl';
    const outer = tempTree({ [`traces/${deep}`]: orphan, 'work/.keep': '' });
    const run = runBundle(['audit', `../traces/${deep}`], join(outer, 'work'));
    expect(run.code).toBe(1);
    const row = run.stdout.split('\n').find((line) => line.startsWith('error '))!;
    expect(row).toMatch(/^error +orphan-call +…\/agent-suite\/claude-code\/session-with-a-long-name\.jsonl:1 +r +c +call 'c' to 'grep'/);
    // The triage lists the whole location, relative to the working folder.
    expect(run.stdout).toContain(`(first at ../traces/${deep}:1)`);
  });

  itCorpus('a finding in a .eval archive names the sample entry and the line of its message', ['inspect/log_message_deduplication.eval'], () => {
    const run = runBundle(['audit', 'inspect/log_message_deduplication.eval', '--fail-on', 'never'], corpusRoot());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('(first at inspect/log_message_deduplication.eval/samples/0_epoch_1.json:13)');
  });
});

describe('verify (dist/cli.js)', () => {
  it('tells a file that was never sealed from a broken chain, and numbers lines from 1', () => {
    const edited = SEALED.toString('utf8').split('\n');
    edited[2] = edited[2]!.replace('"tool":"', '"tool":"x');
    const cwd = tempTree({ 'plain.jsonl': SESSION, 'edited.jsonl': edited.join('\n'), 'empty.jsonl': '' });
    expect(first(['verify', 'plain.jsonl'], cwd)).toEqual([
      2,
      'not-sealed: plain.jsonl: not a sealed file: no line has the "prev" and "digest" of a sealed link (seal it with: agent-trace-audit seal plain.jsonl)',
    ]);
    const broken = runBundle(['verify', 'edited.jsonl'], cwd);
    expect(broken.code).toBe(1);
    expect(broken.stdout.split('\n').filter((line) => /^(chain|first broken link|reason):/.test(line))).toEqual([
      'chain: broken',
      'first broken link: index 2',
      'reason: line 3: "digest" does not match the record (the record or its digest was edited)',
    ]);
    expect(first(['verify', 'empty.jsonl'], cwd)).toEqual([0, 'chain: intact']);
  });
});

describe('seal (dist/cli.js)', () => {
  it("seed 004's flow: seal session.jsonl > sealed.jsonl && verify sealed.jsonl says intact; the checkpoint is beside it", () => {
    const cwd = tempTree({ 'session.jsonl': SESSION });
    const shell = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" seal session.jsonl > sealed.jsonl && "${process.execPath}" "${CLI}" verify sealed.jsonl`], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] } });
    expect(shell.status).toBe(0);
    expect(shell.stdout.split('\n')[0]).toBe('chain: intact');
    expect(shell.stderr.split('\n').slice(0, 3)).toEqual(['sealed: 6 record(s) in jcs form', 'sealed file: sealed.jsonl', 'checkpoint: sealed.jsonl.seal.json']);
    expect(first(['verify', 'sealed.jsonl', '--checkpoint', 'sealed.jsonl.seal.json'], cwd)).toEqual([0, 'chain: intact']);
    expect(readFileSync(join(cwd, 'sealed.jsonl'), 'utf8').split('\n')[0]).toMatch(/^\{"prev":"0{64}","digest":"[0-9a-f]{64}",.*"index":0,/);
    // Again: the shell replaced sealed.jsonl, and its checkpoint is replaced with it.
    const again = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" seal session.jsonl > sealed.jsonl`], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] } });
    expect(again.status).toBe(0);
    expect(first(['verify', 'sealed.jsonl', '--checkpoint', 'sealed.jsonl.seal.json'], cwd)).toEqual([0, 'chain: intact']);
  });

  it('to a pipe the chain goes to stdout; with no file beside it, the checkpoint is written only with --checkpoint', () => {
    const cwd = tempTree({ 'session.jsonl': SESSION });
    const piped = runBundle(['seal', 'session.jsonl'], cwd);
    expect(piped.code).toBe(0);
    expect(piped.stdout.split('\n')).toHaveLength(7);
    expect(piped.stderr.split('\n')[2]).toBe('checkpoint: not written (stdout is not a file: pass --checkpoint <file> to keep one)');
    const kept = runBundle(['seal', 'session.jsonl', '-o', '-', '--checkpoint', 'cp.json'], cwd);
    expect([kept.code, kept.stdout]).toEqual([0, piped.stdout]);
    writeFileSync(join(cwd, 'piped.jsonl'), piped.stdout);
    expect(first(['verify', 'piped.jsonl', '--checkpoint', 'cp.json'], cwd)).toEqual([0, 'chain: intact']);
  });

  it('refuses to replace an existing sealed file or checkpoint without --force', () => {
    const cwd = tempTree({ 'session.jsonl': SESSION });
    expect(first(['seal', 'session.jsonl', '-o', 'out.jsonl'], cwd)).toEqual([0, 'sealed: 6 record(s) in jcs form']);
    const sealed = readFileSync(join(cwd, 'out.jsonl'));
    expect(first(['seal', 'session.jsonl', '-o', 'out.jsonl'], cwd)).toEqual([2, 'output-exists: out.jsonl already exists; pass --force to replace it']);
    expect(first(['seal', 'session.jsonl', '-o', 'other.jsonl', '--checkpoint', 'out.jsonl.seal.json'], cwd)).toEqual([2, 'output-exists: out.jsonl.seal.json already exists; pass --force to replace it']);
    expect(first(['seal', 'session.jsonl', '-o', 'out.jsonl', '--force'], cwd)).toEqual([0, 'sealed: 6 record(s) in jcs form']);
    expect(readFileSync(join(cwd, 'out.jsonl')).equals(sealed)).toBe(true);
  });
});
