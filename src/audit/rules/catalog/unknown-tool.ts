import { z } from 'zod';
import { normalizeHash } from '../../catalog/hashes.js';
import { checkCatalog, listNames, runCatalog, type CheckedCatalog } from '../../catalog/run-catalog.js';
import { defineRule } from '../rule-types.js';

export const unknownTool = defineRule({
  meta: {
    id: 'unknown-tool',
    category: 'catalog',
    defaultSeverity: 'error',
    summary: "A call to a tool name that is not in the run's catalog.",
    likelyCause: 'Catalog hash differs from the recomputed one: the wrong catalog was shipped. Hash matches: the model invented a tool (or kept a name from before a rename).',
    nextAction: 'Hash differs: diff the shipped catalog against the one the run used. Hash matches: reject unknown names in the runtime and return a structured error naming the real tools.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    const first = runCatalog(run);
    if (!first) return;
    // A call is checked against the catalog in force when it was made: the latest catalog record
    // before it (frameworks record the tools with each model request), else the run's first.
    let catalog = first;
    for (const record of run.records) {
      if (record.kind === 'catalog') {
        catalog = checkCatalog(record);
        continue;
      }
      if (record.kind !== 'tool_call') continue;
      const call = record;
      if (catalog.names.has(call.tool)) continue;
      const offered = catalog.names.size === 0 ? "the run's catalog, which is empty" : `the run's catalog (${listNames([...catalog.names].sort())})`;
      report({
        loc: call.loc,
        runId: run.runId,
        callId: call.callId,
        tool: call.tool,
        message: `tool '${call.tool}' is not in ${offered}: ${cause(catalog, call.catalogSha256)}`,
      });
    }
  },
});

/** Tells a wrong catalog from an invented name by the hash the call (or its catalog) recorded. */
function cause(catalog: CheckedCatalog, carried: string | null): string {
  const recorded = carried ?? catalog.record.recordedSha256;
  if (recorded === null) return 'no catalog hash is recorded to tell a wrong catalog from an invented name';
  const lower = normalizeHash(recorded);
  if (lower === catalog.forms.jcs || lower === catalog.forms.python) return 'the recorded catalog hash matches these names, so the model invented a tool';
  return `the recorded catalog hash ${recorded} does not match these names (${catalog.sha256 ?? 'no canonical form'}), so the wrong catalog was likely shipped`;
}
