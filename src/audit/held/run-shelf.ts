import type { CatalogSummary } from '../../model/audit.js';

/**
 * What an audit keeps of a file's runs while it reads them (issue 22): the report
 * lists only the first `limits.max-runs` runs in report order and counts the rest,
 * so a file holds at most that many run entries (the share of the budget the
 * earlier files of its thread left), tallies the others, and keeps each distinct
 * catalog once, every run that offered it pointing at the one copy.
 */

/** Runs read and not held: counted for the summary and the report's `omittedRuns`. */
export interface OmittedTally {
  runs: number;
  toolCalls: number;
  toolResults: number;
}

/** The part of an entry the shelf reads: its counts, and where it sorts. */
interface Shelved {
  readonly summary: { readonly toolCalls: number; readonly toolResults: number };
}

export interface RunShelf<E extends Shelved> {
  /** At most this many entries stay held (Infinity: no cap). */
  readonly keep: number;
  readonly runs: E[];
  readonly omitted: OmittedTally;
  /** Each distinct catalog of the file once, by content, in first-seen order. */
  readonly catalogs: Map<string, CatalogSummary>;
}

export function noneOmitted(): OmittedTally {
  return { runs: 0, toolCalls: 0, toolResults: 0 };
}

/** The one copy of `catalog` this file holds (the first run that offered it made it). */
export function internCatalog(shelf: RunShelf<Shelved>, catalog: CatalogSummary | null): CatalogSummary | null {
  if (catalog === null) return null;
  let key = catalog.sha256 ?? '';
  for (const tool of catalog.tools) key += `\u0000${tool.name}\u0001${tool.schemaSha256 ?? ''}`;
  const held = shelf.catalogs.get(key);
  if (held) return held;
  shelf.catalogs.set(key, catalog);
  return catalog;
}

/**
 * Holds `entry`. Entries in reading order (`order` null) past the cap are only
 * counted; entries sorted at the end (by `order`) are held up to twice the cap,
 * then sorted and cut back, so the first `keep` in that order are never lost.
 */
export function shelveRun<E extends Shelved>(shelf: RunShelf<E>, entry: E, order: ((a: E, b: E) => number) | null): void {
  if (order === null && shelf.runs.length >= shelf.keep) {
    omit(shelf.omitted, entry);
    return;
  }
  shelf.runs.push(entry);
  if (order !== null && shelf.runs.length >= 2 * shelf.keep && shelf.runs.length > 1) trimRuns(shelf, order);
}

/** Sorts the held entries (when `order` is given) and counts those past the cap. */
export function trimRuns<E extends Shelved>(shelf: RunShelf<E>, order: ((a: E, b: E) => number) | null): void {
  if (order !== null) shelf.runs.sort(order);
  if (shelf.runs.length <= shelf.keep) return;
  for (const entry of shelf.runs.splice(shelf.keep)) omit(shelf.omitted, entry);
}

/** Adds `b` into `a`. */
export function addOmitted(a: OmittedTally, b: OmittedTally): void {
  a.runs += b.runs;
  a.toolCalls += b.toolCalls;
  a.toolResults += b.toolResults;
}

function omit(tally: OmittedTally, entry: Shelved): void {
  tally.runs += 1;
  tally.toolCalls += entry.summary.toolCalls;
  tally.toolResults += entry.summary.toolResults;
}
