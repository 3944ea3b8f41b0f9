import { idOf, own, str, toMillis, type JsonObject } from '../facts/fields.js';
import { attributesOf } from './attributes.js';
import { mayBeBeeAi } from './beeai.js';
import { isToolSpan } from './tool-span.js';

/**
 * What a first read of one export's observations tells (nothing of them is
 * kept but, until that read is `done`, the ids of its generations), so that the
 * second read can hand on each observation's facts as it comes instead of
 * holding the export.
 */
export class ExportPlan {
  /**
   * True while the observations are in start order in the file (the order they
   * are read in; those without a start last) and none is one of BeeAI's emitter
   * events (its runs are told from all of them). Otherwise the export is held
   * and sorted, as its reader needs it.
   */
  streamed = true;
  /** Observations seen (the objects of the list). */
  count = 0;
  /** The trace id of the first observation, for an export whose trace has no id. */
  firstTraceId: string | null = null;
  /**
   * While the first read goes on, the ids of the GENERATION observations; once it is
   * `done`, only those of generations another generation is nested in (a nested
   * generation is the model turn of its parent generation): all that is asked of it
   * is whether a generation's parent is a generation, and the rest was kept for the
   * whole export, one id per model turn.
   */
  generations = new Set<string>();
  /** Per generation id, its parent and its index in the list (until `done`). */
  private parents: Array<{ readonly id: string | null; readonly parent: string | null; readonly index: number }> = [];
  private last = -Infinity;
  private duplicateIds = false;
  /** Per root generation id: the index of its last nested generation (set by `done`). */
  private nested = new Map<string, number>();
  /**
   * Once `done`: per observation of an agent run as a tool (a GENERATION below a tool
   * observation), the id of that tool observation (the nearest above it). Its records
   * are that agent's own run (ObservationReader).
   */
  agentOf: ReadonlyMap<string, string> = new Map();
  /** Every observation's id, parent, and whether it is a tool execution or a generation (until `done`). */
  private tree: Array<{ readonly id: string; readonly parent: string | null; readonly tool: boolean; readonly generation: boolean }> = [];

  note(obj: JsonObject): void {
    const start = toMillis(own(obj, 'startTime')) ?? Infinity;
    if (start < this.last) this.streamed = false;
    this.last = start;
    if (this.count === 0) this.firstTraceId = idOf(obj, 'traceId');
    const attrs = attributesOf(obj);
    if (this.streamed && mayBeBeeAi(attrs)) this.streamed = false;
    const type = str(obj, 'type') ?? 'SPAN';
    const observationId = idOf(obj, 'id');
    if (observationId !== null) {
      const tool = type === 'TOOL' || (type !== 'GENERATION' && isToolSpan(obj, attrs));
      this.tree.push({ id: observationId, parent: idOf(obj, 'parentObservationId'), tool, generation: type === 'GENERATION' });
    }
    if (type === 'GENERATION') {
      const id = idOf(obj, 'id');
      if (id !== null) {
        if (this.generations.has(id)) this.duplicateIds = true;
        this.generations.add(id);
      }
      this.parents.push({ id, parent: idOf(obj, 'parentObservationId'), index: this.count });
    }
    this.count += 1;
  }

  /** The first read is over: what the second read asks is worked out, and the rest let go. */
  done(): void {
    this.nested = this.nestedUntil();
    const nestedIn = new Set<string>();
    for (const g of this.parents) if (g.parent !== null && this.generations.has(g.parent)) nestedIn.add(g.parent);
    this.generations = nestedIn;
    this.parents = [];
    this.agentOf = this.agentRuns();
    this.tree = [];
  }

  /** The observations below each tool observation that has a generation below it, by that tool observation's id. */
  private agentRuns(): Map<string, string> {
    const byId = new Map<string, { readonly parent: string | null; readonly tool: boolean }>();
    for (const o of this.tree) if (!byId.has(o.id)) byId.set(o.id, o);
    const agentTools = new Set<string>();
    for (const o of this.tree) {
      if (!o.generation) continue;
      const seen = new Set<string>([o.id]);
      for (let up = o.parent; up !== null && !seen.has(up); up = byId.get(up)?.parent ?? null) {
        seen.add(up);
        if (byId.get(up)?.tool === true) {
          agentTools.add(up);
          break;
        }
      }
    }
    const out = new Map<string, string>();
    if (agentTools.size === 0) return out;
    for (const o of this.tree) {
      const seen = new Set<string>([o.id]);
      for (let up = o.parent; up !== null && !seen.has(up); up = byId.get(up)?.parent ?? null) {
        seen.add(up);
        if (agentTools.has(up)) {
          out.set(o.id, up);
          break;
        }
      }
    }
    return out;
  }

  /**
   * Whether the llm record of generation `id` may still get a catalog before it
   * once the observations up to `index` are read: a generation nested in it (or
   * in one nested in it) comes later. Always true when generation ids repeat.
   */
  turnOpen(id: string, index: number): boolean {
    if (this.duplicateIds) return true;
    const until = this.nested.get(id);
    return until !== undefined && until > index;
  }

  private nestedUntil(): Map<string, number> {
    const parentOf = new Map<string, string | null>();
    for (const g of this.parents) if (g.id !== null) parentOf.set(g.id, g.parent);
    const rootOf = (id: string): string => {
      let at = id;
      for (let steps = 0; steps <= parentOf.size; steps += 1) {
        const up = parentOf.get(at);
        if (up === undefined || up === null || !this.generations.has(up)) return at;
        at = up;
      }
      return at;
    };
    const until = new Map<string, number>();
    for (const g of this.parents) {
      if (g.parent === null || !this.generations.has(g.parent)) continue;
      const root = rootOf(g.parent);
      until.set(root, Math.max(until.get(root) ?? -1, g.index));
    }
    return until;
  }
}
