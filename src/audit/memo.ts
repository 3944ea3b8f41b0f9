/**
 * A Map used as a memo of a pure function: at most `max` entries, emptied when
 * full (every value can be computed again). Values are never `undefined`.
 */
export class Memo<K, V extends NonNullable<unknown> | null> {
  private readonly values = new Map<K, V>();

  constructor(
    private readonly max: number,
    private readonly compute: (key: K) => V,
  ) {}

  get(key: K): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = this.compute(key);
      if (this.values.size >= this.max) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }

  clear(): void {
    this.values.clear();
  }
}

const perRun: Array<Memo<never, null>> = [];

/**
 * A memo of what several rules of one run ask for (a call's key, a payload's
 * strings): the engine empties every such memo once a run's rules and timeline
 * are done (`forgetRunMemos`), so it holds one run, never the file.
 */
export function runMemo<K, V extends NonNullable<unknown> | null>(max: number, compute: (key: K) => V): Memo<K, V> {
  const memo = new Memo(max, compute);
  perRun.push(memo as unknown as Memo<never, null>);
  return memo;
}

export function forgetRunMemos(): void {
  for (const memo of perRun) memo.clear();
}
