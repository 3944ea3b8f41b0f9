import { z } from 'zod';
import { defineRule } from '../rule-types.js';
import { findInternalDetails, KIND_ORDER, type DetailKind, type InternalDetail } from '../../text/internal-detail.js';
import { forEachString } from '../../facts/walk-strings.js';
import { isErrorResult } from '../../facts/error-result.js';

const KIND_NAMES: Readonly<Record<DetailKind, string>> = {
  'service-path': 'service path',
  sql: 'SQL statement',
  version: 'library/runtime version',
  'internal-host': 'internal host',
  'db-constraint': 'database constraint/enum detail',
  'db-detail-line': 'database DETAIL/CONTEXT line',
};

export const internalDetailLeak = defineRule({
  meta: {
    id: 'internal-detail-leak',
    category: 'error-hygiene',
    defaultSeverity: 'warning',
    summary: 'Deployment paths, SQL, library versions, internal hosts or database constraint details in a tool result.',
    likelyCause: 'The result carries exception text or driver output (str(exc), a traceback, a database error) instead of a mapped error body.',
    nextAction: 'Return a stable code and a reference; keep paths, SQL, versions and row details in the log the reference points to.',
    options: z.strictObject({
      /** `errors`: error results only (file tools return paths by design); `all`: every result. */
      scope: z.enum(['errors', 'all']).default('errors'),
    }),
  },
  // Each result as it arrives: its content is not held in its run.
  record(arrival, ctx, report) {
    if (arrival.kind !== 'tool_result') return;
    const result = arrival.record;
    const isError = isErrorResult(arrival.held);
    if (ctx.options.scope === 'errors' && !isError) return;
    const found = new Map<DetailKind, InternalDetail>();
    forEachString(result.content, (_path, text) => {
      for (const detail of findInternalDetails(text)) if (!found.has(detail.kind)) found.set(detail.kind, detail);
    });
    if (found.size === 0) return;
    const parts = KIND_ORDER.filter((kind) => found.has(kind)).map((kind) => {
      const { sample } = found.get(kind)!;
      return sample === null ? KIND_NAMES[kind] : `${KIND_NAMES[kind]} '${sample}'`;
    });
    const tool = result.tool === null ? 'a tool' : `'${result.tool}'`;
    report({
      loc: result.loc,
      runId: result.runId,
      callId: result.callId,
      tool: result.tool,
      key: parts.join(','),
      message: `the ${isError ? 'error ' : ''}result of ${tool} exposes internals: ${parts.join(', ')}`,
    });
  },
});
