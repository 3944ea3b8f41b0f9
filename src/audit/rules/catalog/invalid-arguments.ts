import { z } from 'zod';
import type { CatalogRecord, ToolCall } from '../../../model/records.js';
import { checkCatalog, runCatalog } from '../../catalog/run-catalog.js';
import { firstFailure, SchemaValidators, type CompiledSchema } from '../../catalog/schema-validator.js';
import { defineRule, type ReportFn } from '../rule-types.js';

/** Default of the `pendingCalls` option: calls held with their arguments per run until the run's catalog arrives. */
export const DEFAULT_PENDING_CALLS = 10_000;

/** Calls of one open run that came before its catalog, held until it arrives; and what did not fit. */
interface Pending {
  readonly calls: ToolCall[];
  dropped: { readonly first: ToolCall; count: number } | null;
}

/** One per audit: each distinct schema compiles once; the calls waiting for their run's catalog, by run id. */
interface State {
  readonly validators: SchemaValidators;
  readonly pending: Map<string, Pending>;
  /** Schemas whose failure to compile was reported (once per audit). */
  readonly reported: Set<CompiledSchema>;
}

export const invalidArguments = defineRule({
  meta: {
    id: 'invalid-arguments',
    category: 'catalog',
    defaultSeverity: 'error',
    summary: "Arguments that fail the called tool's JSON Schema.",
    likelyCause: 'Schema hash differs from the previous run: the tool definition drifted. Same hash: the model produced bad arguments and the runtime did not validate them.',
    nextAction: 'Validate arguments against the schema before running the tool and return a structured error naming the path; check schema-drift findings first.',
    options: z.strictObject({
      pendingCalls: z
        .number()
        .int()
        .min(0)
        .default(DEFAULT_PENDING_CALLS)
        .describe("Calls held with their arguments per run when they come before the run's catalog; past it, later such calls are not validated and one finding says so."),
    }),
  },
  init: (): State => ({ validators: new SchemaValidators(), pending: new Map(), reported: new Set() }),
  // Arguments are validated as each call arrives (runs do not hold them), against the run's
  // first catalog record; a call before it waits for it, up to `pendingCalls` calls per run.
  record(arrival, ctx, report) {
    const key = arrival.record.runId ?? '';
    if (arrival.kind === 'catalog') {
      const waiting = ctx.state.pending.get(key);
      if (waiting && arrival.catalog === arrival.record) for (const call of waiting.calls.splice(0)) validate(call, arrival.record, ctx.state, report);
      return;
    }
    if (arrival.kind !== 'tool_call' || arrival.record.args === undefined) return;
    if (arrival.catalog !== null) validate(arrival.record, arrival.catalog, ctx.state, report);
    else wait(arrival.record, key, ctx.state, ctx.options.pendingCalls);
  },
  check(run, ctx, report) {
    const waiting = ctx.state.pending.get(run.runId ?? '');
    ctx.state.pending.delete(run.runId ?? '');
    const catalog = runCatalog(run);
    if (!catalog) return;
    if (waiting?.dropped) {
      const { first, count } = waiting.dropped;
      report({
        loc: first.loc,
        runId: run.runId,
        callId: first.callId,
        tool: first.tool,
        key: 'pending',
        message: `${count} call(s) came before the run's catalog (line ${catalog.record.loc.line}) past the limit of ${ctx.options.pendingCalls} calls held for it (rules.invalid-arguments.pendingCalls): their arguments were not validated`,
      });
    }
    for (const call of run.calls) {
      const tool = catalog.tools.get(call.tool);
      if (!tool || tool.schema === undefined || !call.hasArgs) continue;
      const { compiled } = ctx.state.validators.compile(tool.schema);
      if (compiled.ok || ctx.state.reported.has(compiled)) continue;
      ctx.state.reported.add(compiled);
      report({
        loc: catalog.record.loc,
        runId: run.runId,
        tool: tool.name,
        key: `schema:${tool.name}`,
        message: `schema of '${tool.name}' does not compile (${compiled.reason}): its calls are not validated`,
      });
    }
  },
});

function validate(call: ToolCall, record: CatalogRecord, state: State, report: ReportFn): void {
  const tool = checkCatalog(record).tools.get(call.tool);
  if (!tool || tool.schema === undefined) return;
  const { compiled } = state.validators.compile(tool.schema);
  if (!compiled.ok) return;
  const failure = firstFailure(compiled.validate, call.args);
  if (!failure) return;
  const where = failure.path === '' ? 'the top level' : failure.path;
  report({
    loc: call.loc,
    runId: call.runId,
    callId: call.callId,
    tool: call.tool,
    key: `${where}:${failure.keyword}`,
    message: `arguments to '${call.tool}' fail its schema at ${where} (keyword '${failure.keyword}'): ${failure.message}`,
  });
}

/** Holds a call until its run's catalog arrives, up to `limit` calls per run. */
function wait(call: ToolCall, key: string, state: State, limit: number): void {
  let waiting = state.pending.get(key);
  if (!waiting) state.pending.set(key, (waiting = { calls: [], dropped: null }));
  if (waiting.dropped === null && waiting.calls.length < limit) waiting.calls.push(call);
  else if (waiting.dropped === null) waiting.dropped = { first: call, count: 1 };
  else waiting.dropped.count += 1;
}
