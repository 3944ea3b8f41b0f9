import { z } from 'zod';
import type {  } from '../../../model/run.js';
import type { SourceLocation } from '../../../model/records.js';
import { errorCodeOfResult } from '../../facts/error-code.js';
import { defineRule } from '../rule-types.js';
import { isErrorResult } from '../../facts/error-result.js';

const CATCH_ALL = ['internal_error', 'internal', 'internal_server_error', 'server_error', 'unknown', 'unknown_error', 'error', 'unexpected', 'unexpected_error', 'exception', 'unhandled', 'generic_error', 'general_error', '-32603'];

/** Compares codes without case or separators: `INTERNAL_ERROR`, `InternalError` and `internal-error` are one code; `-32603` keeps its sign. */
function key(code: string): string {
  const sign = code.startsWith('-') ? '-' : '';
  return sign + code.slice(sign.length).toLowerCase().replace(/[-\s_.:/]+/g, '');
}

interface Counts {
  errors: number;
  uncoded: number;
  unmapped: number;
  readonly codes: Map<string, number>;
  first: SourceLocation | null;
}

interface State {
  readonly total: Counts;
  runsWithErrors: number;
}

/** The earlier of two places (file, then line), so merged states pick the same one as a single thread. */
function earlier(a: SourceLocation | null, b: SourceLocation | null): SourceLocation | null {
  if (a === null || b === null) return a ?? b;
  return a.file < b.file || (a.file === b.file && a.line <= b.line) ? a : b;
}

const counts = (): Counts => ({ errors: 0, uncoded: 0, unmapped: 0, codes: new Map(), first: null });
const pct = (share: number) => `${Math.round(share * 100)}%`;

/** `internal_error ×2, unknown ×1`, most frequent first, then by name. */
function listCodes(codes: ReadonlyMap<string, number>): string {
  return [...codes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([code, n]) => `${code} ×${n}`).join(', ');
}

function message(c: Counts, where: string, threshold: number): string {
  const share = c.unmapped / c.errors;
  return `${c.unmapped} of ${c.errors} error results ${where} (${pct(share)}) carry a catch-all code (${listCodes(c.codes)}); threshold ${pct(threshold)}`;
}

export const unmappedErrorShare = defineRule({
  meta: {
    id: 'unmapped-error-share',
    category: 'error-hygiene',
    defaultSeverity: 'warning',
    summary: 'Too many error results carry a catch-all code (internal_error, unknown …): failures nobody has mapped yet.',
    likelyCause: 'The tool boundary maps a few known exceptions and sends everything else down one generic branch.',
    nextAction: 'Look up the logged references of the catch-all errors, name the most frequent causes as codes of their own, and track the share.',
    options: z.strictObject({
      threshold: z.number().min(0).max(1).default(0.25),
      catchAll: z.array(z.string().min(1)).min(1).default(CATCH_ALL),
    }),
  },
  init: (): State => ({ total: counts(), runsWithErrors: 0 }),
  check(run, ctx, report) {
    const catchAll = new Set(ctx.options.catchAll.map(key));
    const mine = counts();
    for (const result of run.results) {
      if (!isErrorResult(result)) continue;
      mine.errors++;
      const code = errorCodeOfResult(result);
      if (code === null) mine.uncoded++;
      else if (catchAll.has(key(code))) {
        mine.unmapped++;
        mine.codes.set(code, (mine.codes.get(code) ?? 0) + 1);
        mine.first ??= result.loc;
      }
    }
    if (mine.errors === 0) return;
    const { total } = ctx.state;
    total.errors += mine.errors;
    total.uncoded += mine.uncoded;
    total.unmapped += mine.unmapped;
    for (const [code, n] of mine.codes) total.codes.set(code, (total.codes.get(code) ?? 0) + n);
    total.first = earlier(total.first, mine.first);
    ctx.state.runsWithErrors++;
    // Additive counters; the share is derived from them where it is shown.
    ctx.metric('errors', mine.errors);
    ctx.metric('unmapped', mine.unmapped);
    ctx.metric('uncoded', mine.uncoded);
    ctx.metric('runs', 1);
    const share = mine.unmapped / mine.errors;
    if (share > ctx.options.threshold && mine.first) {
      const where = run.runId === null ? 'in the run' : `in run '${run.runId}'`;
      report({ loc: mine.first, runId: run.runId, message: message(mine, where, ctx.options.threshold) });
    }
  },
  merge(a, b) {
    const codes = new Map(a.total.codes);
    for (const [code, n] of b.total.codes) codes.set(code, (codes.get(code) ?? 0) + n);
    return {
      total: {
        errors: a.total.errors + b.total.errors,
        uncoded: a.total.uncoded + b.total.uncoded,
        unmapped: a.total.unmapped + b.total.unmapped,
        codes,
        first: earlier(a.total.first, b.total.first),
      },
      runsWithErrors: a.runsWithErrors + b.runsWithErrors,
    };
  },
  finish(ctx, report) {
    const { total } = ctx.state;
    // With one run the per-run finding already says it all.
    if (ctx.state.runsWithErrors < 2 || total.first === null) return;
    if (total.unmapped / total.errors > ctx.options.threshold) {
      report({ loc: total.first, key: 'audit', message: message(total, `across ${ctx.state.runsWithErrors} runs`, ctx.options.threshold) });
    }
  },
});
