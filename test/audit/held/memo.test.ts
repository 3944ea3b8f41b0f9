import { describe, expect, it } from 'vitest';
import { Memo, RunMemos, type MemoSpec } from '../../../src/audit/held/memo.js';

describe('RunMemos', () => {
  it('computes a value once per run, and each run has its own', () => {
    const computed: string[] = [];
    const spec: MemoSpec<string, number> = { max: 100, compute: (key) => (computed.push(key), key.length) };
    const first = new RunMemos();
    expect([first.get(spec, 'ab'), first.get(spec, 'ab'), first.get(spec, 'abc')]).toEqual([2, 2, 3]);
    expect(computed).toEqual(['ab', 'abc']);
    const second = new RunMemos();
    expect(second.get(spec, 'ab')).toBe(2);
    expect(computed).toEqual(['ab', 'abc', 'ab']);
  });

  it('keeps the memos of different specs apart', () => {
    const memos = new RunMemos();
    const length: MemoSpec<string, number> = { max: 10, compute: (key) => key.length };
    const upper: MemoSpec<string, string> = { max: 10, compute: (key) => key.toUpperCase() };
    expect([memos.get(length, 'constructor'), memos.get(upper, 'constructor'), memos.get(length, '__proto__')]).toEqual([11, 'CONSTRUCTOR', 9]);
  });

  it('a Memo is emptied when full, and computes again', () => {
    let calls = 0;
    const memo = new Memo(2, (key: number) => (calls += 1, key * 2));
    for (const key of [1, 2, 1, 3, 1]) memo.get(key);
    // 1, 2 computed; 1 hit; 3 clears (full) then is stored; 1 computed again.
    expect(calls).toBe(4);
  });
});
