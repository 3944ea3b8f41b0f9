import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/io/limits.js';
import { sealToFolder } from '../../../src/seal/index.js';
import { MAX_UNSEALED_LINES } from '../../../src/seal/unsealed-lines.js';
import { tempDir, tempTree } from '../../helpers.js';
import { runInProcess } from '../audit-cli.js';

// A fork's trace with a line that is not a record must not leave the trace unsealed, nor sealed
// only as bytes: its records are sealed as records, and each line that cannot be is listed.

const record = (i: number) => JSON.stringify({ run_id: 'r1', kind: 'tool_call', call_id: `c${i}`, tool: 'ls' });
/** Ten records with five lines between them that are not records, each for another reason. */
const BAD: ReadonlyArray<[line: Buffer, reason: string]> = [
  [Buffer.from('[]'), 'a record must be a JSON object, not an array'],
  [Buffer.from('{"run_id":"r1",'), 'not a JSON record'],
  [Buffer.from('{"prev":"x","kind":"llm"}'), 'the record already has a "prev" field, which sealing adds (is the file sealed already?)'],
  [Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), 'invalid UTF-8 at byte 6 of the line'],
  [Buffer.from('{"a":1,"a":2}'), 'not a JSON record (duplicate key "a"'],
];
function mixedTrace(): { bytes: Buffer; badLines: number[]; records: unknown[] } {
  const parts: Buffer[] = [];
  const badLines: number[] = [];
  const records: unknown[] = [];
  let line = 0;
  for (let i = 0; i < 10; i += 1) {
    parts.push(Buffer.from(`${record(i)}\n`));
    records.push(JSON.parse(record(i)));
    line += 1;
    if (i % 2 === 1) {
      parts.push(BAD[(i - 1) / 2]![0], Buffer.from('\n'));
      line += 1;
      badLines.push(line);
    }
  }
  return { bytes: Buffer.concat(parts), badLines, records };
}

/** The records of a sealed file, read independently: each line's JSON without the two chain fields. */
function sealedRecords(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const { prev: _prev, digest: _digest, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });
}

describe('seal --skip-unsealable and verify (CLI)', () => {
  it('seals the ten records, lists the five lines that are not records, and verify reports them', async () => {
    const trace = mixedTrace();
    expect(trace.badLines).toEqual([3, 6, 9, 12, 15]);
    const root = tempTree({ 'mixed.jsonl': trace.bytes });
    // Without the flag the first such line stops the seal, as before.
    const refused = await runInProcess(['seal', 'mixed.jsonl'], root);
    expect([refused.code, refused.stderr]).toEqual([2, 'seal-not-object: mixed.jsonl:3: a record must be a JSON object, not an array (seal --skip-unsealable leaves such lines out of the chain and lists them in the checkpoint)\n']);

    const sealed = await runInProcess(['seal', 'mixed.jsonl', '--skip-unsealable', '-o', 'mixed.sealed.jsonl'], root);
    expect(sealed.code, sealed.stderr).toBe(0);
    const lines = sealed.stdout.split('\n');
    expect(lines[0]).toBe('sealed: 10 record(s) in jcs form');
    expect(lines.slice(4, 6)).toEqual([
      'unsealed: 5 line(s) of the source are not records and are not in the chain (source_sha256 covers every byte of the source)',
      'unsealed line 3: a record must be a JSON object, not an array',
    ]);
    expect(sealedRecords(join(root, 'mixed.sealed.jsonl'))).toEqual(trace.records);
    const checkpoint = JSON.parse(readFileSync(join(root, 'mixed.sealed.jsonl.seal.json'), 'utf8')) as { kind?: string; records: number; unsealed_lines: Array<{ line: number; reason: string }> };
    expect(checkpoint.kind).toBeUndefined();
    expect(checkpoint.records).toBe(10);
    expect(checkpoint.unsealed_lines.map((u) => u.line)).toEqual(trace.badLines);
    checkpoint.unsealed_lines.forEach((u, i) => expect(u.reason.startsWith(BAD[i]![1]), u.reason).toBe(true));

    const verified = await runInProcess(['verify', 'mixed.sealed.jsonl', '--checkpoint', 'mixed.sealed.jsonl.seal.json'], root);
    expect(verified.code).toBe(0);
    const out = verified.stdout.split('\n');
    expect(out.slice(0, 2)).toEqual(['chain: intact', 'records: 10']);
    expect(out.filter((l) => l.startsWith('unsealed line ')).map((l) => Number(/^unsealed line (\d+):/.exec(l)![1]))).toEqual(trace.badLines);
    expect(out).toContain('unsealed: 5 line(s) of the source are not records and are not in the chain (source_sha256 covers every byte of the source)');

    // The records are still sealed: one edited record breaks the chain.
    const text = readFileSync(join(root, 'mixed.sealed.jsonl'), 'utf8');
    writeFileSync(join(root, 'mixed.sealed.jsonl'), text.replace('"call_id":"c4"', '"call_id":"c5"'));
    const broken = await runInProcess(['verify', 'mixed.sealed.jsonl', '--checkpoint', 'mixed.sealed.jsonl.seal.json'], root);
    expect([broken.code, broken.stdout.split('\n').slice(0, 2)]).toEqual([1, ['chain: broken', 'first broken link: index 4']]);
  });

  it(`more than ${MAX_UNSEALED_LINES} lines that are not records: --form jcs stops, naming the line past the bound; auto seals the bytes, as the Action`, async () => {
    const text = `${record(0)}\n${'[]\n'.repeat(MAX_UNSEALED_LINES + 1)}${record(1)}\n`;
    const root = tempTree({ 'bomb.jsonl': text });
    const auto = await runInProcess(['seal', 'bomb.jsonl', '--skip-unsealable', '-o', 'auto.jsonl'], root);
    expect([auto.code, auto.stdout.split('\n')[0]]).toEqual([0, "sealed: 1 link(s) of the file's bytes (kind: bytes)"]);
    const run = await runInProcess(['seal', 'bomb.jsonl', '--skip-unsealable', '--form', 'jcs'], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `seal-too-many-unsealable: bomb.jsonl:${MAX_UNSEALED_LINES + 2}: cannot be sealed as records: more than ${MAX_UNSEALED_LINES} lines are not records (the last: a record must be a JSON object, not an array)\n`,
    );
  });

  it('a verify of a checkpoint whose reasons were tampered with prints them sanitized', async () => {
    const root = tempTree({ 't.jsonl': `${record(0)}\n[]\n` });
    expect((await runInProcess(['seal', 't.jsonl', '--skip-unsealable', '-o', 's.jsonl'], root)).code).toBe(0);
    const path = join(root, 's.jsonl.seal.json');
    const checkpoint = JSON.parse(readFileSync(path, 'utf8')) as { unsealed_lines: Array<{ reason: string }> };
    checkpoint.unsealed_lines[0]!.reason = `\u001b]8;;x\u0007ghp_${'a1B2'.repeat(9)}\u202e`;
    writeFileSync(path, JSON.stringify(checkpoint));
    const run = await runInProcess(['verify', 's.jsonl', '--checkpoint', 's.jsonl.seal.json'], root);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('unsealed line'))).toEqual(['unsealed line 2: [REDACTED:github-token]']);
  });
});

describe('sealToFolder (the Action) chooses records or bytes', () => {
  const seal = async (name: string, text: string) => {
    const root = tempTree({ [name]: text });
    return sealToFolder(join(root, name), tempDir('ata-sealed-'), DEFAULT_LIMITS, {}, name);
  };

  it('records, with the lines that are not records listed, when the first line is a record', async () => {
    const sealed = await seal('t.jsonl', `${record(0)}\n[]\n3\n${record(1)}\n`);
    expect([sealed.kind, sealed.unsealedLines]).toEqual([
      'records',
      [
        { line: 2, reason: 'a record must be a JSON object, not an array' },
        { line: 3, reason: 'a record must be a JSON object, not a number' },
      ],
    ]);
    expect(sealedRecords(sealed.sealedPath)).toEqual([JSON.parse(record(0)), JSON.parse(record(1))]);
  });

  it('bytes when the first line is not a record, or past the bound; Python form when JCS cannot hold a number', async () => {
    expect((await seal('doc.json', `{\n  "a": 1\n}\n`)).kind).toBe('bytes');
    expect((await seal('t.jsonl', `[]\n${record(0)}\n`)).kind).toBe('bytes');
    expect((await seal('t.jsonl', `${record(0)}\n${'[]\n'.repeat(MAX_UNSEALED_LINES + 1)}`)).kind).toBe('bytes');
    const python = await seal('t.jsonl', `${record(0)}\n{"n":12345678901234567890}\n[]\n`);
    expect([python.kind, python.mode, python.unsealedLines.map((u) => u.line)]).toEqual(['records', 'python', [3]]);
  });
});
