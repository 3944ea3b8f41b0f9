import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { defaultSealedPath } from '../../src/cli/commands/seal.js';
import { tempTree } from '../helpers.js';
import { corpusFile, itCorpus } from '../public-corpus.js';

const SOURCE = readFileSync('test/fixtures/seal/source.jsonl');
const SEALED = readFileSync('test/fixtures/seal/sealed.jsonl');
const CHECKPOINT = readFileSync('test/fixtures/seal/sealed.jsonl.seal.json', 'utf8');
const FINAL = 'a2e9cfe7510b09b8766a86fd3e1eeddc000b471f38ca81fed2ea6b1d22b30716';

async function cli(cwd: string, args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env });
  return { code, stdout, stderr };
}

describe('agent-trace-audit seal', () => {
  it('writes <name>.sealed.jsonl and its checkpoint beside it, byte-identical on every run', async () => {
    const cwd = tempTree({ 'runs/trace.jsonl': SOURCE });
    const first = await cli(cwd, ['seal', 'runs/trace.jsonl']);
    expect(first).toEqual({
      code: 0,
      stderr: '',
      stdout: `sealed: 5 record(s) in jcs form\nsealed file: runs/trace.sealed.jsonl\ncheckpoint: runs/trace.sealed.jsonl.seal.json\nfinal digest: ${FINAL}\n`,
    });
    expect(readFileSync(join(cwd, 'runs/trace.sealed.jsonl')).equals(SEALED)).toBe(true);
    expect(readFileSync(join(cwd, 'runs/trace.sealed.jsonl.seal.json'), 'utf8')).toBe(CHECKPOINT);
    expect(await cli(cwd, ['seal', 'runs/trace.jsonl', '--force'])).toEqual(first);
    expect(readdirSync(join(cwd, 'runs')).sort()).toEqual(['trace.jsonl', 'trace.sealed.jsonl', 'trace.sealed.jsonl.seal.json']);
  });

  it('-o names the sealed file; -o - writes it to stdout with --checkpoint; .gz input is read inflated', async () => {
    const cwd = tempTree({ 'trace.jsonl.gz': gzipSync(SOURCE) });
    expect((await cli(cwd, ['seal', 'trace.jsonl.gz', '-o', 'out.jsonl'])).code).toBe(0);
    expect(readFileSync(join(cwd, 'out.jsonl')).equals(SEALED)).toBe(true);
    const checkpoint = JSON.parse(readFileSync(join(cwd, 'out.jsonl.seal.json'), 'utf8')) as Record<string, unknown>;
    // source_sha256 is the hash of the bytes on disk, here the compressed ones.
    expect(checkpoint['source_sha256']).not.toBe((JSON.parse(CHECKPOINT) as Record<string, unknown>)['source_sha256']);
    const piped = await cli(cwd, ['seal', 'trace.jsonl.gz', '-o', '-', '--checkpoint', 'cp.json']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(SEALED.toString('utf8'));
    expect(piped.stderr).toContain('sealed file: (stdout)\ncheckpoint: cp.json\n');
    expect(readFileSync(join(cwd, 'cp.json'), 'utf8')).toBe(readFileSync(join(cwd, 'out.jsonl.seal.json'), 'utf8'));
  });

  it('in GitHub Actions the checkpoint names the run', async () => {
    const cwd = tempTree({ 'trace.jsonl': SOURCE });
    const env = { GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'octo/lab', GITHUB_SHA: 'f'.repeat(40), GITHUB_RUN_ID: '42', GITHUB_RUN_ATTEMPT: '1' };
    expect((await cli(cwd, ['seal', 'trace.jsonl'], env)).code).toBe(0);
    const checkpoint = JSON.parse(readFileSync(join(cwd, 'trace.sealed.jsonl.seal.json'), 'utf8')) as Record<string, unknown>;
    expect(checkpoint['github']).toEqual({ repository: 'octo/lab', commit: 'f'.repeat(40), run_id: '42', run_attempt: '1' });
    expect(checkpoint['final_digest']).toBe(FINAL);
  });

  it('refuses a record --form jcs cannot represent, naming file and line, and leaves no file behind; auto seals it in the Python form', async () => {
    const cwd = tempTree({ 'trace.jsonl': `${SOURCE.toString('utf8')}{"tool":"x","n":12345678901234567890}\n` });
    expect(await cli(cwd, ['seal', 'trace.jsonl', '--form', 'jcs'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'seal-unrepresentable: trace.jsonl:7: cannot be sealed in jcs form: integer 12345678901234567890 is beyond 2^53 and would lose digits at .n\n',
    });
    expect(readdirSync(cwd)).toEqual(['trace.jsonl']);
    const auto = await cli(cwd, ['seal', 'trace.jsonl']);
    expect([auto.code, auto.stdout.split('\n')[0]]).toEqual([0, 'sealed: 6 record(s) in python form']);
  });

  it('--form jcs refuses invalid UTF-8 and a sealed file given again, naming the line', async () => {
    const cwd = tempTree({ 'bad.jsonl': Buffer.from([...Buffer.from('{"a":"'), 0xff, ...Buffer.from('"}\n')]), 'sealed.jsonl': SEALED });
    expect((await cli(cwd, ['seal', 'bad.jsonl', '--form', 'jcs'])).stderr).toBe(
      'seal-invalid-utf8: bad.jsonl:1: cannot be sealed: invalid UTF-8 at byte 6 of the line (seal --skip-unsealable leaves such lines out of the chain and lists them in the checkpoint)\n',
    );
    expect((await cli(cwd, ['seal', 'sealed.jsonl', '-o', 'again.jsonl', '--form', 'jcs'])).stderr).toBe(
      'seal-reserved-field: sealed.jsonl:1: the record already has a "prev" field, which sealing adds (is the file sealed already?) (seal --skip-unsealable leaves such lines out of the chain and lists them in the checkpoint)\n',
    );
  });

  it.each([
    [['seal'], 'usage: seal takes exactly one file'],
    [['seal', 'a.jsonl', 'b.jsonl'], 'usage: seal takes exactly one file'],
    [['seal', 'trace.jsonl', '--canonical', 'yaml'], 'usage: --canonical must be one of jcs, python, not "yaml"'],
    [['seal', 'trace.jsonl', '-o', 'trace.jsonl'], 'usage: the input, the sealed file and the checkpoint must be three different files'],
    [['seal', 'missing.jsonl'], 'no-such-path: no such file or directory: "missing.jsonl"'],
    [['seal', 'trace.jsonl', '-o', 'no/such/dir/out.jsonl'], 'unwritable: no/such/dir/out.jsonl: cannot write: no such file or folder'],
  ])('%j exits 2: %s', async (args, message) => {
    const cwd = tempTree({ 'trace.jsonl': SOURCE });
    const result = await cli(cwd, args);
    expect(result.code).toBe(2);
    expect(result.stderr.startsWith(message)).toBe(true);
    expect(readdirSync(cwd)).toEqual(['trace.jsonl']);
  });

  it('derives the default output name', () => {
    expect(['t.jsonl', 't.jsonl.gz', 't.ndjson', 'dir/t.JSON', 't.log'].map(defaultSealedPath)).toEqual([
      't.sealed.jsonl',
      't.sealed.jsonl',
      't.sealed.jsonl',
      'dir/t.sealed.jsonl',
      't.log.sealed.jsonl',
    ]);
  });
});

describe('seal --canonical python on a real OpenTelemetry export', () => {
  itCorpus('seals nanosecond timestamps exactly where JCS must refuse them, and verifies intact', ['otlp/agentevals-tempo-batches.json'], async () => {
    const source = readFileSync(corpusFile('otlp/agentevals-tempo-batches.json'));
    const cwd = tempTree({ 'tempo.json': source });
    const jcs = await cli(cwd, ['seal', 'tempo.json', '--form', 'jcs', '-o', 'jcs.jsonl']);
    expect(jcs.code).toBe(2);
    expect(jcs.stderr).toMatch(/^seal-unrepresentable: tempo\.json:1: cannot be sealed in jcs form: integer \d+ is beyond 2\^53/);
    const python = await cli(cwd, ['seal', 'tempo.json', '--canonical', 'python', '-o', 'py.jsonl']);
    expect(python).toMatchObject({ code: 0, stderr: '' });
    const checkpoint = JSON.parse(readFileSync(join(cwd, 'py.jsonl.seal.json'), 'utf8')) as { canonical: string; records: number };
    expect([checkpoint.canonical, checkpoint.records]).toEqual(['python', 1]);
    const verified = await cli(cwd, ['verify', 'py.jsonl', '--checkpoint', 'py.jsonl.seal.json']);
    expect(verified.code).toBe(0);
    expect(verified.stdout.split('\n')[0]).toBe('chain: intact');
  });
});
