import { z } from 'zod';
import type { HeldResult, Run } from '../../../model/run.js';
import { normalizeHash } from '../../catalog/hashes.js';
import { runCatalog } from '../../catalog/run-catalog.js';
import { pairRun } from '../../facts/pairing.js';
import { defineRule } from '../rule-types.js';

export const unmatchedResult = defineRule({
  meta: {
    id: 'unmatched-result',
    category: 'pairing',
    defaultSeverity: 'error',
    summary: 'A tool result whose call id was never issued in its run.',
    likelyCause: 'A duplicate worker, records shipped out of order, or two trace files mixed into one.',
    nextAction: 'Check call id allocation and log order; give each run its own run_id.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    const { unmatched } = pairRun(run);
    if (unmatched.length === 0) return;
    const hashes = catalogHashes(run);
    for (const result of unmatched) {
      const id = result.callId === null ? 'without a call id' : `for call id '${result.callId}'`;
      report({
        loc: result.loc,
        runId: run.runId,
        callId: result.callId,
        tool: result.tool,
        message: `result ${id}${result.tool ? ` ('${result.tool}')` : ''} has no matching call in this run${likelyCause(result, hashes)}`,
      });
    }
  },
});

interface RunHashes {
  /** Hashes that name the run's catalog (its recomputed forms and recorded value); null without a catalog record. */
  readonly accepted: ReadonlySet<string> | null;
  /** Whether the run's records carry catalog hashes of more than one catalog. */
  readonly mixed: boolean;
  /** Whether any record of the run (not its catalog) carries a catalog hash to decide by. */
  readonly known: boolean;
}

/** The catalog identities a run shows: its catalog record's, and those its records carry. */
function catalogHashes(run: Run): RunHashes {
  const catalog = runCatalog(run);
  const accepted = catalog ? catalog.accepted : null;
  const carried = new Set<string>();
  let carriesAny = false;
  for (const record of run.records) {
    if (record.kind === 'catalog' || record.catalogSha256 === null) continue;
    carriesAny = true;
    const hash = normalizeHash(record.catalogSha256);
    if (accepted === null || !accepted.has(hash)) carried.add(hash);
  }
  // Against a catalog record, any other hash means two catalogs; without one, two different carried hashes do.
  const mixed = accepted === null ? carried.size > 1 : carried.size > 0;
  // Only records that carry a hash can show which catalog they belong to (a catalog alone proves nothing).
  return { accepted, mixed, known: carriesAny };
}

/**
 * Seed 000's decision table for "result row without a call": if the catalog hash
 * differs, mixed JSONL files; if it matches, a runtime pairing bug. Nothing is
 * added when the run shows no catalog hash to decide by.
 */
function likelyCause(result: HeldResult, hashes: RunHashes): string {
  if (!hashes.known) return '';
  const own = result.catalogSha256 === null ? null : normalizeHash(result.catalogSha256);
  const differs = own !== null && hashes.accepted !== null && !hashes.accepted.has(own);
  if (differs) return '; its catalog hash differs from the run\'s: likely mixed JSONL files (two runs or files in one)';
  if (hashes.mixed) return '; the run carries more than one catalog hash: likely mixed JSONL files (two runs or files in one)';
  return '; the catalog hash matches the run\'s: likely a runtime pairing bug (check call id allocation and log order)';
}
