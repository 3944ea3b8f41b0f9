import { z } from 'zod';
import { runCatalog } from '../catalog/run-catalog.js';
import { firstFailure, SchemaValidators } from '../catalog/schema-validator.js';
import { defineRule } from '../rule-types.js';

export const invalidArguments = defineRule({
  meta: {
    id: 'invalid-arguments',
    category: 'catalog',
    defaultSeverity: 'error',
    summary: "Arguments that fail the called tool's JSON Schema.",
    likelyCause: 'Schema hash differs from the previous run: the tool definition drifted. Same hash: the model produced bad arguments and the runtime did not validate them.',
    nextAction: 'Validate arguments against the schema before running the tool and return a structured error naming the path; check schema-drift findings first.',
    options: z.strictObject({}),
  },
  /** One validator set per audit: each distinct schema compiles once. */
  init: () => new SchemaValidators(),
  check(run, ctx, report) {
    const catalog = runCatalog(run);
    if (!catalog) return;
    for (const call of run.calls) {
      const tool = catalog.tools.get(call.tool);
      if (!tool || tool.schema === undefined || call.args === undefined) continue;
      const { compiled, fresh } = ctx.state.compile(tool.schema);
      if (!compiled.ok) {
        if (fresh) {
          report({
            loc: catalog.record.loc,
            runId: run.runId,
            tool: tool.name,
            key: `schema:${tool.name}`,
            message: `schema of '${tool.name}' does not compile (${compiled.reason}): its calls are not validated`,
          });
        }
        continue;
      }
      const failure = firstFailure(compiled.validate, call.args);
      if (!failure) continue;
      const where = failure.path === '' ? 'the top level' : failure.path;
      report({
        loc: call.loc,
        runId: run.runId,
        callId: call.callId,
        tool: call.tool,
        message: `arguments to '${call.tool}' fail its schema at ${where} (keyword '${failure.keyword}'): ${failure.message}`,
      });
    }
  },
});
