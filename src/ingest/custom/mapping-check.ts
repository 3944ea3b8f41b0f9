import type { CompiledMapping } from './compile.js';

/** Ids kept per file for the "every result unmatched" check; past it the check is not made. */
const MAX_IDS = 100_000;

/** What one kind of item (calls, results) gave over a file. */
export class ItemTally {
  /** Nodes `select` reached. */
  selected = 0;
  /** Of those, the ones `when` held for (all of them without `when`). */
  kept = 0;
  /** Kept items whose tool name was missing or not a name (skipped). */
  unnamed = 0;
  /** Read items with an id. */
  withId = 0;
  readonly ids = new Set<string>();
  idsFull = false;

  id(id: string | null): void {
    if (id === null) return;
    this.withId += 1;
    if (this.ids.size < MAX_IDS) this.ids.add(id);
    else this.idsFull = true;
  }

  /** Items read (kept and named). */
  get read(): number {
    return this.kept - this.unnamed;
  }
}

/**
 * What a mapping gave over one file, counted as it reads, so that a mapping that
 * missed says so (docs/formats/custom.md, "A mapping that checks itself"): a format's
 * calls found and its results selecting nothing (or the reverse), every result's id
 * unmatched, or hardly any record giving an item. A miss is a `partial-read` that
 * names the key, never a clean-looking report.
 */
export class MappingTally {
  records = 0;
  recordsWithItems = 0;
  readonly calls = new ItemTally();
  readonly results = new ItemTally();

  record(gaveItem: boolean): void {
    this.records += 1;
    if (gaveItem) this.recordsWithItems += 1;
  }

  callId(id: string | null): void {
    this.calls.id(id);
  }

  resultId(id: string | null): void {
    this.results.id(id);
  }
}

/** Fewer than one record in MOSTLY_EMPTY giving an item, of at least MIN_RECORDS: the mapping likely missed. */
const MOSTLY_EMPTY = 10;
const MIN_RECORDS = 20;

/** The mapping's misses over a file, each a message naming the key (empty when it read what it selected). */
export function mappingMisses(m: CompiledMapping, t: MappingTally): string[] {
  if (t.records === 0) return [];
  const misses: string[] = [];
  const records = `${t.records} record${t.records === 1 ? '' : 's'}`;
  const side = (key: 'calls' | 'results', other: 'calls' | 'results') => {
    const spec = m[key];
    const mine = t[key];
    if (spec === undefined || mine.read > 0 || t[other].read === 0) return;
    if (mine.selected === 0) misses.push(`${key}.select (${spec.select.text}) selected nothing in ${records}, while ${t[other].read} ${other} were read`);
    else if (mine.kept === 0) misses.push(`${key}.when held for none of the ${mine.selected} nodes ${key}.select selected, while ${t[other].read} ${other} were read`);
  };
  side('results', 'calls');
  side('calls', 'results');
  const callId = m.calls?.id;
  const resultId = m.results?.id;
  if (callId && resultId && t.calls.withId > 0 && t.results.read > 0) {
    if (t.results.withId === 0) misses.push(`results.id (${resultId.text}) selected nothing in ${t.results.read} results, while ${t.calls.withId} calls have an id`);
    else if (!t.calls.idsFull && !t.results.idsFull && ![...t.results.ids].some((id) => t.calls.ids.has(id))) {
      misses.push(`no result's id (results.id ${resultId.text}) is a call's id (calls.id ${callId.text}): all ${t.results.withId} results with an id are unmatched`);
    }
  }
  if (t.records >= MIN_RECORDS && t.recordsWithItems * MOSTLY_EMPTY < t.records && t.recordsWithItems > 0) {
    misses.push(`only ${t.recordsWithItems} of ${records} gave a call or result (${selects(m)})`);
  }
  return misses;
}

function selects(m: CompiledMapping): string {
  return [m.calls ? `calls.select ${m.calls.select.text}` : null, m.results ? `results.select ${m.results.select.text}` : null].filter((s) => s !== null).join(', ');
}
