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

/** A memo of a pure per-run function: its bound and the function (one constant per use). */
export interface MemoSpec<K, V extends NonNullable<unknown> | null> {
  readonly max: number;
  readonly compute: (key: K) => V;
}

/**
 * The memos of one run: what several rules of the run ask for (a call's key, whether a
 * result carries an error). The engine makes one per run and hands it to every rule in
 * RuleContext (`ctx.memos`) and to the timeline; it is released with the run, so it holds
 * one run, never the file, and no module-level registry has to be emptied.
 */
export class RunMemos {
  readonly #memos = new Map<MemoSpec<never, null>, Memo<never, null>>();

  get<K, V extends NonNullable<unknown> | null>(spec: MemoSpec<K, V>, key: K): V {
    let memo = this.#memos.get(spec as unknown as MemoSpec<never, null>) as unknown as Memo<K, V> | undefined;
    if (memo === undefined) {
      memo = new Memo(spec.max, spec.compute);
      this.#memos.set(spec as unknown as MemoSpec<never, null>, memo as unknown as Memo<never, null>);
    }
    return memo.get(key);
  }
}
