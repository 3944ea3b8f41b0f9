import { idOf, type JsonObject } from '../facts/fields.js';
import type { RecordSink } from '../types.js';
import { beeAiExecutions } from './beeai.js';
import type { ExportPlan } from './export-plan.js';
import { observation, ObservationReader, type Observation } from './observation-reader.js';

/** One export of the document, as the first read found it. */
export interface ExportToRead {
  /** The path of its observations list (listKey). */
  readonly key: string;
  readonly plan: ExportPlan;
  /** `trace.id`. */
  readonly traceId: string | null;
  /** Its index in a list of exports (null for a document of one). */
  readonly index: number | null;
}

/** An export being read. */
interface Current {
  readonly export: ExportToRead;
  /** Null while a held export's observations are gathered. */
  readonly reader: ObservationReader | null;
  /** Held: every observation; streamed: those the fallback pass still needs. */
  readonly kept: Observation[];
  read: number;
}

/**
 * The second read: observations come in file order, export after export. A
 * streamed export (see ExportPlan) is read as it comes and its records are
 * handed on as soon as nothing can go before them; a held one is gathered,
 * sorted by start time (those without a start keep their place at the end) and
 * read at its end. Either way each export's records are those, in that order,
 * that reading it whole gave.
 */
export class ExportReading {
  private readonly byKey = new Map<string, ExportToRead>();
  private current: Current | null = null;

  constructor(
    private readonly file: string,
    private readonly sink: RecordSink,
    exports: readonly ExportToRead[],
  ) {
    for (const e of exports) this.byKey.set(e.key, e);
  }

  observation(key: string, obj: JsonObject, line: number): void {
    const found = this.byKey.get(key);
    if (found === undefined) return; // a list its export does not read (it has the other one)
    if (this.current?.export !== found) {
      this.end();
      this.current = this.start(found);
    }
    const current = this.current!;
    const o = observation(obj, line);
    if (current.reader === null) {
      current.kept.push(o);
      return;
    }
    if (current.reader.streamed(o)) current.kept.push(o);
    const index = current.read;
    current.read += 1;
    current.reader.drain((id) => current.export.plan.turnOpen(id, index));
  }

  /** The export being read is complete. */
  end(): void {
    const current = this.current;
    this.current = null;
    if (current === null) return;
    if (current.reader !== null) {
      current.reader.finish(current.kept);
      return;
    }
    const observations = current.kept;
    observations.sort((a, b) => (a.start ?? Infinity) - (b.start ?? Infinity));
    const reader = new ObservationReader(this.file, this.runId(current.export, observations[0]?.obj ?? null), this.sink, current.export.plan.generations, beeAiExecutions(observations), current.export.plan.agentOf);
    for (const o of observations) reader.primary(o);
    reader.finish(observations);
  }

  private start(e: ExportToRead): Current {
    if (!e.plan.streamed) return { export: e, reader: null, kept: [], read: 0 };
    const reader = new ObservationReader(this.file, this.runId(e, null), this.sink, e.plan.generations, [], e.plan.agentOf);
    return { export: e, reader, kept: [], read: 0 };
  }

  /** The trace's id, else the first observation's trace id, else `#i` in a list of exports. */
  private runId(e: ExportToRead, first: JsonObject | null): string | null {
    const traceIdOfFirst = first !== null ? idOf(first, 'traceId') : e.plan.firstTraceId;
    return e.traceId ?? traceIdOfFirst ?? (e.index !== null ? `#${e.index}` : null);
  }
}
