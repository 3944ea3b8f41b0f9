import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sealInputs, type SealFile } from '../../src/action/seal-step.js';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { silentLogger } from '../../src/logger.js';
import { sealToFolder } from '../../src/seal/index.js';
import { jsonl, tempDir, tempTree } from '../helpers.js';
import { PLANTED, PLANTED_TRACE } from '../seal/planted-secrets.js';
import { runBundle } from './run-cli.js';

/** Seed 004's replay report of its dirty sample, as the article prints it. */
const SEED_REPLAY = [
  'calls: 6',
  'divergence: index 5',
  'findings: 2',
  "index 2: redundant-call: tool 'read_file' repeats the identical call at index 1 with no state change between them",
  "index 5: non-determinism: tool 'search' returned a different response than the identical call at index 3",
  '',
].join('\n');

function evalArchive(): Uint8Array {
  const sample = { id: 's', epoch: 1, messages: [], events: [{ event: 'tool', id: 'c1', function: 'search', arguments: { q: 'x' }, timestamp: '2025-01-01T00:00:01Z', result: 'ok' }] };
  return zipSync({ 'header.json': strToU8(JSON.stringify({ version: 2, eval: {} })), 'samples/s_epoch_1.json': strToU8(JSON.stringify(sample)) });
}

describe('the bundled CLI: seal, verify, replay (node dist/cli.js)', () => {
  it('seals an Inspect .eval archive as bytes (kind: bytes) that verifies intact; a seal of nothing is exit 2; a bad line names --skip-unsealable', () => {
    const root = tempTree({ 'log.eval': evalArchive(), 'empty.jsonl': '', 'bad.jsonl': jsonl({ a: 1 }, []) });
    // stdout is a pipe here: -o names the sealed file (at a terminal it is the default).
    const sealed = runBundle(['seal', 'log.eval', '-o', 'log.eval.sealed.jsonl'], root);
    expect(sealed.code).toBe(0);
    expect(sealed.stdout.split('\n')[0]).toBe("sealed: 1 link(s) of the file's bytes (kind: bytes)");
    expect(JSON.parse(readFileSync(join(root, 'log.eval.sealed.jsonl.seal.json'), 'utf8'))).toMatchObject({ kind: 'bytes', records: 1 });
    const verified = runBundle(['verify', 'log.eval.sealed.jsonl'], root);
    expect([verified.code, verified.stdout.split('\n')[0], verified.stderr]).toEqual([0, 'chain: intact', 'verify: using the checkpoint beside the file: log.eval.sealed.jsonl.seal.json\n']);
    expect(verified.stdout).toContain('kind: bytes');
    expect(runBundle(['seal', 'empty.jsonl', '-o', 'e.jsonl'], root)).toEqual({ code: 2, stdout: '', stderr: 'seal-empty: empty.jsonl: nothing to seal: the file is empty\n' });
    expect(runBundle(['seal', 'bad.jsonl', '-o', 'b.jsonl'], root)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'seal-not-object: bad.jsonl:2: a record must be a JSON object, not an array (seal --skip-unsealable leaves such lines out of the chain and lists them in the checkpoint)\n',
    });
    expect(readdirSync(root).sort()).toEqual(['bad.jsonl', 'empty.jsonl', 'log.eval', 'log.eval.sealed.jsonl', 'log.eval.sealed.jsonl.seal.json']);
  });

  it("replay prints the seed's report of samples/session-dirty.jsonl byte for byte and exits 1; a CRLF copy of a sealed file exits 1", () => {
    const root = tempDir('ata-seed-');
    mkdirSync(join(root, 'samples'));
    copyFileSync('test/fixtures/replay/session-dirty.jsonl', join(root, 'samples/session-dirty.jsonl'));
    expect(runBundle(['replay', 'samples/session-dirty.jsonl'], root)).toEqual({ code: 1, stdout: SEED_REPLAY, stderr: '' });
    expect(runBundle(['seal', 'samples/session-dirty.jsonl', '-o', 'sealed.jsonl'], root).code).toBe(0);
    writeFileSync(join(root, 'crlf.jsonl'), readFileSync(join(root, 'sealed.jsonl'), 'utf8').replace(/\n/g, '\r\n'));
    const crlf = runBundle(['verify', 'crlf.jsonl', '--checkpoint', 'sealed.jsonl.seal.json'], root);
    expect([crlf.code, crlf.stdout.split('\n').slice(0, 2)]).toEqual([1, ['chain: broken', 'first broken link: index 0']]);
    expect(crlf.stdout).toContain('CR byte (0x0D)');
  });

  it('verify <artifact.zip> of a real redacted artifact: exit 0 with the digest, 1 naming the changed file, 1 for a wrong digest; seal --redact verifies intact', () => {
    return (async () => {
      const traces = tempTree({ 'planted.jsonl': PLANTED_TRACE, 'logs/run.eval': evalArchive() });
      const out = tempDir('ata-artifact-');
      const sealFile: SealFile = (path, dir, display, options) => sealToFolder(path, dir, DEFAULT_LIMITS, {}, display, options);
      const inputs = ['logs/run.eval', 'planted.jsonl'].map((display) => ({ path: join(traces, display), display }));
      const { digest } = await sealInputs(inputs, out, sealFile, silentLogger, true);
      const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(join(out, name)).isFile());
      const zip = (root: string) => zipSync(Object.fromEntries(files.map((name) => [name, new Uint8Array(readFileSync(join(root, name)))])));
      const work = tempDir('ata-zip-');
      writeFileSync(join(work, 'agent-trace-audit.zip'), zip(out));
      const ok = runBundle(['verify', 'agent-trace-audit.zip', '--seal-digest', digest], work);
      expect([ok.code, ok.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, 'total: 2 file(s): 2 intact; seal digest matches: intact']);
      expect(ok.stdout).toContain('redactions: 5 value(s) in 1 file(s) replaced before sealing (receipts in the checkpoints)\n');
      for (const name of files) for (const secret of Object.values(PLANTED)) expect(readFileSync(join(out, name), 'latin1').includes(secret)).toBe(false);

      const sealed = join(out, files.find((name) => name.endsWith('planted.sealed.jsonl'))!);
      const bytes = readFileSync(sealed);
      bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 1;
      writeFileSync(sealed, bytes);
      writeFileSync(join(work, 'changed.zip'), zip(out));
      const changed = runBundle(['verify', 'changed.zip', '--seal-digest', digest], work);
      expect(changed.code).toBe(1);
      expect(changed.stdout.split('\n').filter((line) => !line.startsWith('intact: ') && line.includes('planted.jsonl'))).toHaveLength(1);
      expect(changed.stdout).toMatch(/^broken at index 3: planted\.jsonl \(/m);
      const wrong = runBundle(['verify', 'agent-trace-audit.zip', '--seal-digest', `sha256:${'1'.repeat(64)}`], work);
      expect([wrong.code, wrong.stdout.trimEnd().split('\n').at(-1)]).toEqual([1, 'total: 2 file(s): 2 intact; seal digest does not match: NOT INTACT']);

      const one = tempTree({ 't.jsonl': PLANTED_TRACE });
      expect(runBundle(['seal', 't.jsonl', '--redact', '-o', 't.sealed.jsonl'], one).code).toBe(0);
      const redacted = runBundle(['verify', 't.sealed.jsonl'], one);
      expect([redacted.code, redacted.stdout.split('\n')[0]]).toEqual([0, 'chain: intact']);
      expect(redacted.stdout).toContain('redactions: 5 value(s) replaced before sealing (receipts in the checkpoint)\n');
      expect(relative(one, join(one, 't.sealed.jsonl'))).toBe('t.sealed.jsonl');
    })();
  });
});
