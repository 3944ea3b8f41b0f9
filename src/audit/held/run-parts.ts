import { RunBuilder, type HeldCall, type Run } from '../../model/run.js';
import { pairRun } from '../facts/pairing.js';

/**
 * A run that reaches `limits.max-run-records` held records is audited in parts, so
 * its memory is bounded whatever its length (issue 22): the records so far become a
 * part, and the next part starts with what the rules of a later part need from it.
 */
export interface CutRun {
  /** The part to audit now: the run's records so far, less the calls carried on. */
  readonly part: Run;
  /** The next part's first records: the calls of this part still awaiting a result, in record order. */
  readonly carried: readonly HeldCall[];
  /** The catalog the next part's calls are checked against (this part's, or the one it carried). */
  readonly catalog: Run['carriedCatalog'];
}

/**
 * Cuts a run at the record limit. The calls that got no result in it (pairing.ts
 * orphans) among its last `window` records are carried into the next part, so a
 * result that arrives after the cut still finds its call. Older ones stay in this
 * part, where orphan-call reports them, and where they stay outstanding for the
 * rules that look at what was outstanding (llm-stall, continued-while-outstanding),
 * as in the whole run; so a run of calls that are never answered carries no growing tail.
 */
export function cutRun(run: Run, window: number): CutRun {
  const catalog = run.catalogs[0] ?? run.carriedCatalog;
  const { orphanPositions } = pairRun(run);
  const from = run.records.length - window;
  let first = orphanPositions.length;
  while (first > 0 && orphanPositions[first - 1]! >= from) first -= 1;
  if (first === orphanPositions.length) return { part: run, carried: [], catalog };
  const carriedAt = new Uint8Array(run.records.length);
  for (let k = first; k < orphanPositions.length; k += 1) carriedAt[orphanPositions[k]!] = 1;
  // `run` is finished as the part it is (Run.part), so the part made from it is that part too.
  const part = new RunBuilder(run.file, run.runId, run.format, run.carriedCatalog);
  const carried: HeldCall[] = [];
  run.records.forEach((record, at) => {
    if (carriedAt[at] === 1) carried.push(record as HeldCall);
    else part.add(record);
  });
  return { part: part.finish(run.part), carried, catalog };
}
