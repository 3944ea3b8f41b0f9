import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sealInputs, type SealFile } from '../../src/action/seal-step.js';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import type { Logger } from '../../src/logger.js';
import { sealToFolder } from '../../src/seal/index.js';
import { cli } from '../cli/run-cli.js';
import { jsonl, tempDir, tempTree } from '../helpers.js';
import { PLANTED, PLANTED_TRACE } from './planted-secrets.js';

const silent: Logger = { info: () => undefined, warning: () => undefined, error: () => undefined, debug: () => undefined };
/** The Action's seal of one file (src/main.ts), outside GitHub Actions. */
const sealFile: SealFile = (path, outDir, display, options) => sealToFolder(path, outDir, DEFAULT_LIMITS, {}, display, options);

const EVAL_SECRET = 'AKIAJ7QZ3EXAMPLEKEY1';
const DOC_SECRET = `sk-ant-api03-${'Qx7_'.repeat(10)}`;
const LONG_NAME = `${'n'.repeat(240)}.jsonl`;

function evalArchive(): Uint8Array {
  const sample = {
    id: 'a',
    epoch: 1,
    messages: [],
    events: [
      { event: 'model', timestamp: '2025-01-01T00:00:00Z', tools: [{ name: 'search', parameters: { type: 'object' } }] },
      { event: 'tool', id: 'c1', function: 'search', arguments: { q: `key ${EVAL_SECRET}` }, timestamp: '2025-01-01T00:00:01Z', completed: '2025-01-01T00:00:02Z', result: 'ok' },
    ],
  };
  return zipSync({ 'header.json': strToU8(JSON.stringify({ version: 2, eval: {} })), 'samples/a_epoch_1.json': strToU8(JSON.stringify(sample, null, 2)) });
}

const LANGFUSE_LIKE = `${JSON.stringify({ run_id: 'd', tool_calls: [{ id: 'x', name: 'fetch', args: { token: DOC_SECRET } }] }, null, 2)}\n`;

/** A workspace of traces and the artifact folder the Action's seal step makes of them (redaction on). */
async function sealedArtifact(): Promise<{ traces: string; out: string; digest: string }> {
  const traces = tempTree({
    'planted.jsonl': PLANTED_TRACE,
    'logs/run.eval': evalArchive(),
    'doc.json': LANGFUSE_LIKE,
    [LONG_NAME]: jsonl({ kind: 'tool_call', run_id: 'l', call_id: 'c', tool: 't', args: {} }),
  });
  const out = tempDir('ata-artifact-');
  const inputs = ['planted.jsonl', 'logs/run.eval', 'doc.json', LONG_NAME].map((display) => ({ path: join(traces, display), display }));
  const summary = await sealInputs(inputs, out, sealFile, silent, true);
  expect(summary.sealed).toBe(4);
  return { traces, out, digest: summary.digest };
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((name) => join(root, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

/** The bytes a byte-sealed chain holds: its b64 chunks joined. */
function bytesOfChain(path: string): Buffer {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  return Buffer.concat(lines.map((line) => Buffer.from((JSON.parse(line) as { b64: string }).b64, 'base64')));
}

describe('verify <artifact>', () => {
  it('checks every file of a real redacted artifact (folder, zip, manifest) against the seal digest; no planted secret is in any file', async () => {
    const { traces, out, digest } = await sealedArtifact();
    const names = ['doc.json', 'logs/run.eval', LONG_NAME, 'planted.jsonl'];
    const run = await cli(['verify', out, '--seal-digest', digest]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 4).map((l) => l.split(' (')[0])).toEqual(names.map((n) => `intact: ${n}`));
    expect(lines).toContain('seal digest: matches --seal-digest');
    expect(lines).toContain('redactions: 7 value(s) in 3 file(s) replaced before sealing (receipts in the checkpoints)');
    expect(lines.at(-1)).toBe('total: 4 file(s): 4 intact; seal digest matches: intact');

    // No planted secret in any file of the artifact, the byte-sealed archive unpacked too.
    const secrets = [...Object.values(PLANTED), EVAL_SECRET, DOC_SECRET];
    for (const path of filesUnder(out)) {
      const text = readFileSync(path, 'latin1');
      for (const secret of secrets) expect([relative(out, path), text.includes(secret)]).toEqual([relative(out, path), false]);
    }
    const manifest = JSON.parse(readFileSync(join(out, 'seal-manifest.json'), 'utf8')) as { redaction: unknown; files: Array<{ file: string; sealed: string; checkpoint: string; redacted?: number }> };
    expect(manifest.redaction).toEqual({ enabled: true, values: 7, files: 3 });
    const evalEntry = manifest.files.find((f) => f.file === 'logs/run.eval')!;
    const members = unzipSync(bytesOfChain(join(out, evalEntry.sealed)));
    expect(Object.keys(members)).toEqual(['header.json', 'samples/a_epoch_1.json']);
    expect(Buffer.from(members['samples/a_epoch_1.json']!).toString('utf8')).toContain('"q": "key [REDACTED:aws-access-key:1]"');
    // A 240-character name is sealed under a shortened name; the manifest keeps the name.
    const long = manifest.files.find((f) => f.file === LONG_NAME)!;
    expect(long.sealed).toMatch(/^sealed\/0003\/n{191}~[0-9a-f]{8}\.sealed\.jsonl$/);

    // The zip as downloaded, and the manifest itself, verify the same; --sources checks each original.
    const zip = join(tempDir('ata-zip-'), 'agent-trace-audit.zip');
    writeFileSync(zip, zipSync(Object.fromEntries(filesUnder(out).map((path) => [relative(out, path), new Uint8Array(readFileSync(path))]))));
    expect((await cli(['verify', zip, '--seal-digest', digest])).code).toBe(0);
    const withSources = await cli(['verify', join(out, 'seal-manifest.json'), '--seal-digest', digest, '--sources', traces]);
    expect(withSources.code).toBe(0);
    expect(withSources.stdout.split('\n').filter((l) => l.startsWith('intact: ') && l.endsWith('; source matches)'))).toHaveLength(4);
    writeFileSync(join(traces, 'doc.json'), LANGFUSE_LIKE.replace('"fetch"', '"fetch2"'));
    const changedSource = await cli(['verify', out, '--seal-digest', digest, '--sources', traces]);
    expect(changedSource.code).toBe(1);
    expect(changedSource.stdout).toContain('intact: doc.json (1 link(s), bytes; 1 redaction receipt(s); SOURCE DIFFERS from source_sha256)');
  });

  // A finding is at its record's line and names the normalized path (`args.q`); a receipt is at its token's line and names
  // the path in the file (`events[1].arguments.q`): the same member, rule and field, on the record's line or below it
  // (the same line in JSON Lines).
  it('receipts cover every secret-in-trace finding of the sealed traces: same file, rule and field, at the record', async () => {
    const { traces, out } = await sealedArtifact();
    const audit = await cli(['audit', '.', '--format', 'json', '--fail-on', 'never'], traces);
    const findings = (JSON.parse(audit.stdout) as { findings: Array<{ ruleId: string; file: string; line: number; message: string }> }).findings.filter((f) => f.ruleId === 'secret-in-trace');
    // doc.json is in no trace format the audit reads: its secret is redacted all the same (7 receipts), but it has no finding.
    expect(findings.map((f) => f.file)).toEqual(['logs/run.eval/samples/a_epoch_1.json', ...Array(5).fill('planted.jsonl')]);
    const manifest = JSON.parse(readFileSync(join(out, 'seal-manifest.json'), 'utf8')) as { files: Array<{ file: string; checkpoint: string }> };
    for (const finding of findings) {
      const entry = manifest.files.find((f) => finding.file === f.file || finding.file.startsWith(`${f.file}/`))!;
      const receipts = (JSON.parse(readFileSync(join(out, entry.checkpoint), 'utf8')) as { redactions: Array<{ entry?: string; line: number; rule_id: string; field_path: string }> }).redactions;
      const member = (r: { entry?: string }) => (r.entry === undefined ? finding.file === entry.file : finding.file === `${entry.file}/${r.entry}`);
      const field = (path: string) => path.split(/[.>]/).at(-1);
      const path = /at '([^']*)'/.exec(finding.message)![1]!;
      // A whole result or argument string (`result`): its root is named by the format (`content`), any field holds it.
      const sameField = (r: { field_path: string }) => !/[.>]/.test(path) || field(r.field_path) === field(path);
      const line = (r: { entry?: string; line: number }) => (r.entry === undefined ? r.line === finding.line : r.line >= finding.line);
      const covered = receipts.some((r) => member(r) && line(r) && finding.message.startsWith(`${r.rule_id} `) && sameField(r));
      expect([finding.file, finding.line, covered]).toEqual([finding.file, finding.line, true]);
    }
  });

  it('one byte changed in one sealed file is exit 1 naming that file; a wrong digest is exit 1; a missing file is named', async () => {
    const { out, digest } = await sealedArtifact();
    const manifest = JSON.parse(readFileSync(join(out, 'seal-manifest.json'), 'utf8')) as { files: Array<{ file: string; sealed: string }> };
    const planted = join(out, manifest.files.find((f) => f.file === 'planted.jsonl')!.sealed);
    const original = readFileSync(planted);
    const changed = Buffer.from(original);
    changed[original.indexOf('"deploy"') + 1] = 'D'.charCodeAt(0);
    writeFileSync(planted, changed);
    const broken = await cli(['verify', out, '--seal-digest', digest]);
    expect(broken.code).toBe(1);
    expect(broken.stdout.split('\n').filter((l) => !l.startsWith('intact: ') && l.includes(': planted.jsonl'))).toEqual([
      'broken at index 0: planted.jsonl (line 1: "digest" does not match the record (the record or its digest was edited); 5 redaction receipt(s))',
    ]);
    expect(broken.stdout.trimEnd().split('\n').at(-1)).toBe('total: 4 file(s): 3 intact, 1 broken; seal digest matches: NOT INTACT');
    writeFileSync(planted, original);
    const wrong = await cli(['verify', out, '--seal-digest', `sha256:${'0'.repeat(64)}`]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain("seal digest: DOES NOT MATCH --seal-digest: these are not the files the run sealed (or not the run's manifest)\n");
    writeFileSync(planted, '');
    const cut = await cli(['verify', out]);
    expect([cut.code, cut.stdout.split('\n').find((l) => l.includes(': planted.jsonl'))]).toEqual([1, 'truncated: planted.jsonl (4 link(s) expected, 0 intact; 5 redaction receipt(s))']);
  });

  it('verify --checkpoint of a changed file is exit 1 with its verdict, never not-sealed: CRLF, the unsealed source, garbage', async () => {
    const root = tempTree({ 't.jsonl': PLANTED_TRACE });
    expect((await cli(['seal', 't.jsonl'], root)).code).toBe(0);
    const sealed = readFileSync(join(root, 't.sealed.jsonl'), 'utf8');
    const cases: Array<[string, string, string]> = [
      ['crlf', sealed.replace(/\n/g, '\r\n'), 'chain: broken'],
      ['source', PLANTED_TRACE, 'chain: swapped'],
      ['garbage', 'not a trace at all\n\u0000\u0001', 'chain: swapped'],
    ];
    for (const [name, text, first] of cases) {
      writeFileSync(join(root, `${name}.jsonl`), text);
      const run = await cli(['verify', `${name}.jsonl`, '--checkpoint', 't.sealed.jsonl.seal.json'], root);
      expect([name, run.code, run.stdout.split('\n')[0], run.stderr]).toEqual([name, 1, first, '']);
    }
    const crlf = await cli(['verify', 'crlf.jsonl', '--checkpoint', 't.sealed.jsonl.seal.json'], root);
    expect(crlf.stdout).toContain("reason: line 1 ends with a CR byte (0x0D) before its LF: the file's line ends were changed to CRLF after sealing");
    // Without a checkpoint: the CRLF file is still a changed sealed file (exit 1); the source is not sealed (exit 2).
    expect((await cli(['verify', 'crlf.jsonl'], root)).code).toBe(1);
    expect((await cli(['verify', 'source.jsonl'], root)).code).toBe(2);
    // The checkpoint beside the file is used, and said so.
    const beside = await cli(['verify', 't.sealed.jsonl'], root);
    expect([beside.code, beside.stderr]).toEqual([0, 'verify: using the checkpoint beside the file: t.sealed.jsonl.seal.json\n']);
    expect(beside.stdout).toContain('checkpoint: jcs form, 4 record(s), matches\n');
  });
});
