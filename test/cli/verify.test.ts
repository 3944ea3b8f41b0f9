import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { tempTree } from '../helpers.js';

const SEALED = readFileSync('test/fixtures/seal/sealed.jsonl');
const CHECKPOINT = readFileSync('test/fixtures/seal/sealed.jsonl.seal.json', 'utf8');
const FINAL = 'a2e9cfe7510b09b8766a86fd3e1eeddc000b471f38ca81fed2ea6b1d22b30716';

async function cli(cwd: string, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env: {} });
  return { code, stdout, stderr };
}

describe('agent-trace-audit verify', () => {
  const tree = () => tempTree({ 's.jsonl': SEALED, 's.jsonl.seal.json': CHECKPOINT, 'cut.jsonl': SEALED.subarray(0, 823), 'bad.json': '{}' });

  it('exit 0 intact, 1 truncated, 2 for a bad checkpoint, a missing file or no file', async () => {
    const cwd = tree();
    expect(await cli(cwd, ['verify', 's.jsonl', '--checkpoint', 's.jsonl.seal.json'])).toEqual({
      code: 0,
      stderr: '',
      stdout: `chain: intact\nrecords: 5\nfinal digest: ${FINAL}\ncheckpoint: jcs form, 5 record(s), matches\nkind: records: one canonical record per line of the trace\n`,
    });
    const cut = await cli(cwd, ['verify', 'cut.jsonl', '--checkpoint', 's.jsonl.seal.json']);
    expect([cut.code, cut.stdout.split('\n').slice(0, 2)]).toEqual([1, ['chain: truncated', 'records: expected 5, found 3']]);
    expect((await cli(cwd, ['verify', 'cut.jsonl'])).code).toBe(0);
    expect(await cli(cwd, ['verify', 's.jsonl', '--checkpoint', 'bad.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'checkpoint-invalid: bad.json: not a seal checkpoint of version 1: format: Invalid input: expected "agent-trace-audit-seal"\n',
    });
    expect(await cli(cwd, ['verify', 'nope.jsonl'])).toEqual({ code: 2, stdout: '', stderr: 'no-such-path: no such file or directory: "nope.jsonl"\n' });
    expect(await cli(cwd, ['verify', '.'])).toEqual({ code: 2, stdout: '', stderr: 'no-seal-manifest: .: a folder without seal-manifest.json: give the folder of a downloaded artifact, or a sealed file\n' });
    expect((await cli(cwd, ['verify'])).stderr.startsWith('usage: verify takes exactly one artifact or sealed file')).toBe(true);
  });
});
