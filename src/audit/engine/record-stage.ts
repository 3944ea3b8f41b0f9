import type { CatalogRecord, TraceRecord } from '../../model/records.js';
import type { HeldRecord } from '../../model/run.js';
import type { ActiveRule, AnyRule, Emit } from './active-rules.js';
import { Origins } from '../held/origin.js';
import { hold, holdNeeds, type HoldNeeds } from '../held/hold.js';
import type { Arrival, ReportFn } from '../rules/rule-types.js';

/**
 * The per-record stage of one file's audit: each record is held (hold.ts: calls
 * and results lose their payloads) and, before that, the rules with a `record`
 * stage see it with its payload. A rule that crashes there is remembered for the
 * record's run, whose `rule-crash` is reported when the run is complete (see
 * `crashesOf`), as a crash in `check` is; it sees no more records of that run.
 */
export class RecordStage {
  /** The rules with a record stage, each with its context and report function (looked up once, not per record). */
  private readonly stages: readonly { readonly rule: AnyRule; readonly ctx: ActiveRule['ctx']; readonly report: ReportFn }[];
  private readonly needs: HoldNeeds;
  /** The file and run id each held record shares with its run's others. */
  private readonly origins = new Origins();
  /** Run key → the rules whose stage crashed on that run, with what they threw. */
  private readonly crashed = new Map<string, Map<AnyRule, unknown>>();

  constructor(active: readonly ActiveRule[], emit: Emit) {
    this.stages = active.filter(({ rule }) => rule.record !== undefined).map(({ rule, ctx }) => ({ rule, ctx, report: (draft) => emit(rule.meta.id, draft) }));
    this.needs = holdNeeds(active.map(({ rule }) => rule));
  }

  hold(record: TraceRecord): HeldRecord {
    return hold(record, this.needs, this.origins);
  }

  /** Runs the record stages on a call, result or catalog record; `runs` knows its run's catalog so far. */
  arrive(record: TraceRecord, held: HeldRecord, runs: { catalogOf(runId: string | null): CatalogRecord | null }): void {
    if (this.stages.length === 0 || (record.kind !== 'tool_call' && record.kind !== 'tool_result' && record.kind !== 'catalog')) return;
    const arrival = { kind: record.kind, record, held, catalog: runs.catalogOf(record.runId) } as Arrival;
    const key = record.runId ?? '';
    const crashed = this.crashed.size === 0 ? undefined : this.crashed.get(key);
    for (const { rule, ctx, report } of this.stages) {
      if (crashed?.has(rule)) continue;
      try {
        rule.record!(arrival, ctx, report);
      } catch (error) {
        let rules = this.crashed.get(key);
        if (!rules) this.crashed.set(key, (rules = new Map()));
        rules.set(rule, error);
      }
    }
  }

  /** The rules whose stage crashed on the run with this id, with their errors; forgotten once asked (the run is complete). */
  crashesOf(runId: string | null): ReadonlyMap<AnyRule, unknown> | undefined {
    const key = runId ?? '';
    const crashes = this.crashed.get(key);
    if (crashes) this.crashed.delete(key);
    return crashes;
  }
}
