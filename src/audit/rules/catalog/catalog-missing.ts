import { z } from 'zod';
import { defineRule } from '../rule-types.js';

export const catalogMissing = defineRule({
  meta: {
    id: 'catalog-missing',
    category: 'catalog',
    defaultSeverity: 'note',
    summary: 'A run with tool calls but no catalog record: tool names cannot be checked.',
    likelyCause: 'The harness never records the tool list the model received (most logs keep only name, arguments and output).',
    nextAction: 'Write one catalog event (sorted names, catalog_sha256, schema_sha256) before the first model request.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    // A run cut at limits.max-run-records is reported once, in its first part.
    if (run.catalogs.length > 0 || run.carriedCatalog !== null || run.calls.length === 0 || run.part > 1) return;
    const first = run.calls[0]!;
    const count = run.calls.length === 1 ? '1 tool call' : `${run.calls.length} tool calls`;
    report({
      loc: first.loc,
      runId: run.runId,
      message: `${run.part === 1 ? "run's first part" : 'run'} has ${count} but no catalog record: nothing to check the tool names against`,
    });
  },
});
