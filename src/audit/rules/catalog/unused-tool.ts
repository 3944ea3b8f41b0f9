import { z } from 'zod';
import { runCatalog } from '../../catalog/run-catalog.js';
import { defineRule } from '../rule-types.js';

export const unusedTool = defineRule({
  meta: {
    id: 'unused-tool',
    category: 'catalog',
    defaultSeverity: 'note',
    summary: 'A catalog tool the run never called.',
    likelyCause: 'A rare escape hatch (expected), a tool the prompt never motivates, or a failed call recovered with another tool.',
    nextAction: 'With an unknown-tool finding in the same run: look for the recovery that hid the catalog miss. Otherwise list intended escape hatches under `allow`.',
    options: z.strictObject({
      /** Tool names that may stay unused (exact, case-sensitive). */
      allow: z.array(z.string()).default([]),
    }),
  },
  check(run, ctx, report) {
    const catalog = runCatalog(run);
    // A later part of a run cut at limits.max-run-records: the part with the catalog record reports.
    if (!catalog || catalog.record !== run.catalogs[0]) return;
    const allowed = new Set(ctx.options.allow);
    const called = new Set(run.calls.map((call) => call.tool));
    const unused = [...catalog.names].filter((name) => !called.has(name) && !allowed.has(name)).sort();
    for (const name of unused) {
      report({
        loc: catalog.record.loc,
        runId: run.runId,
        tool: name,
        key: name,
        message: `tool '${name}' is in the catalog but the run never called it (${called.size === 0 ? 'no calls at all' : `${run.calls.length} ${run.calls.length === 1 ? 'call' : 'calls'} to other tools`})`,
      });
    }
  },
});
