import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInputs } from '../../../src/io/collect.js';
import { tempTree } from '../../helpers.js';
import { auditJson, callLine, pairLines } from '../audit-cli.js';

/** Nine traces, four of them (or their folders) named with a newline or a carriage return. */
const NAMES = ['a.jsonl', 'b\nc.jsonl', 'd\re.jsonl', 'x:y.jsonl', 'sub/f\ng.jsonl', 'd\nir/t.jsonl', 'c\rr/u.jsonl', 'q"<>|*?.jsonl', 'z.jsonl'];

function tree(): string {
  const root = tempTree({});
  NAMES.forEach((name, i) => {
    const path = join(root, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, i === 0 ? `${callLine('open')}\n` : pairLines(`c${i}`));
  });
  return root;
}

describe('file names with a newline, CR or an artifact-reserved character', () => {
  it('a glob collects all nine, none silently skipped', async () => {
    const root = tree();
    const { inputs, skipped } = await collectInputs(['**/*.jsonl'], { root, strict: true });
    expect(inputs.map((i) => i.display).sort()).toEqual([...NAMES].sort());
    expect(skipped).toEqual([]);
  });

  it('an exclude glob matches a name with a newline', async () => {
    const root = tree();
    const { inputs } = await collectInputs(['**/*.jsonl'], { root, strict: true, exclude: ['**/*\n*'] });
    expect(inputs.map((i) => i.display).sort()).toEqual(NAMES.filter((n) => !n.split('/').pop()!.includes('\n')).sort());
  });

  it('the audit reads every one and shows each name on one line', async () => {
    const root = tree();
    const { report } = await auditJson(['**/*.jsonl'], [], root);
    expect(report.summary).toMatchObject({ files: 9, toolCalls: 9, toolResults: 8 });
    expect(report.files.map((f) => f.path).every((p) => !/[\r\n]/.test(p))).toBe(true);
    expect(report.files.map((f) => f.path)).toContain('b c.jsonl');
  });
});
