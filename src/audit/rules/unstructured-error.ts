import { z } from 'zod';
import { errorCodeOfResult } from '../error-code.js';
import { defineRule } from '../rule-types.js';
import { bodyExcerpt } from '../text/excerpt.js';

export const unstructuredError = defineRule({
  meta: {
    id: 'unstructured-error',
    category: 'error-hygiene',
    defaultSeverity: 'warning',
    summary: 'An error result without a stable code the caller can branch on: a bare message or str(exc) text.',
    likelyCause: 'The tool boundary returns the exception text (or nothing) instead of mapping failures to an error body with a code.',
    nextAction: 'Map exceptions at the tool boundary to a body with a stable code, a class, retryable and a reference; log the details instead.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    for (const result of run.results) {
      if (!result.isError || errorCodeOfResult(result) !== null) continue;
      const tool = result.tool === null ? 'a tool' : `'${result.tool}'`;
      const excerpt = bodyExcerpt(result.content);
      const body = excerpt === null ? 'empty body' : `body: "${excerpt}"`;
      report({
        loc: result.loc,
        runId: run.runId,
        callId: result.callId,
        tool: result.tool,
        message: `error result of ${tool} has no machine-readable code (${body})`,
      });
    }
  },
});
