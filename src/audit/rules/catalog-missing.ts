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
    if (run.catalogs.length > 0 || run.calls.length === 0) return;
    const first = run.calls[0]!;
    const count = run.calls.length === 1 ? '1 tool call' : `${run.calls.length} tool calls`;
    report({
      loc: first.loc,
      runId: run.runId,
      message: `run has ${count} but no catalog record: nothing to check the tool names against`,
    });
  },
});
