import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, tempTree } from './helpers.js';

// The temporary folders the helpers make are removed by the helpers: a test run leaves nothing behind.
describe('tempDir / tempTree cleanup', () => {
  let fromBeforeAll = '';
  let fromBeforeEach = '';
  let firstBeforeEach = '';
  let fromTest = '';
  let fromTree = '';
  beforeAll(() => {
    fromBeforeAll = tempDir('ata-helpers-test-');
  });
  beforeEach(() => {
    fromBeforeEach = tempDir('ata-helpers-test-');
  });

  it('makes folders that exist during the test', () => {
    firstBeforeEach = fromBeforeEach;
    fromTest = tempDir('ata-helpers-test-');
    fromTree = tempTree({ 'sub/a.jsonl': '{}\n' });
    writeFileSync(join(fromTest, 'x'), 'x');
    for (const dir of [fromBeforeAll, fromBeforeEach, fromTest]) expect(existsSync(dir)).toBe(true);
    expect(existsSync(join(fromTree, 'sub/a.jsonl'))).toBe(true);
  });

  it('removes what a test (or its beforeEach) made when that test finishes, and keeps what beforeAll made until the file finishes', () => {
    expect(existsSync(firstBeforeEach)).toBe(false);
    expect(existsSync(fromTest)).toBe(false);
    expect(existsSync(fromTree)).toBe(false);
    expect(fromBeforeEach).not.toBe(firstBeforeEach);
    expect(existsSync(fromBeforeEach)).toBe(true);
    expect(existsSync(fromBeforeAll)).toBe(true);
  });
});
