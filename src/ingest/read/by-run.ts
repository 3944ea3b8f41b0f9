/**
 * Values per run and call id, a Map per run: one Map keyed by run + NUL + call id
 * built, flattened and hashed a new string per lookup, several times the cost.
 */
export class ByRun<V> {
  private readonly runs = new Map<string, Map<string, V>>();
  /** Entries in all runs. */
  size = 0;

  get(runId: string | null, callId: string): V | undefined {
    return this.runs.get(runId ?? '')?.get(callId);
  }

  /** Sets the value unless the call id has one in the run; false when it had. */
  setFirst(runId: string | null, callId: string, value: V): boolean {
    const run = runId ?? '';
    let ids = this.runs.get(run);
    if (ids === undefined) this.runs.set(run, (ids = new Map()));
    if (ids.has(callId)) return false;
    ids.set(callId, value);
    this.size += 1;
    return true;
  }

  delete(runId: string | null, callId: string): void {
    const run = runId ?? '';
    const ids = this.runs.get(run);
    if (ids === undefined || !ids.delete(callId)) return;
    this.size -= 1;
    if (ids.size === 0) this.runs.delete(run);
  }

  /** Forgets the entry set first: the oldest of the run that got its first entry first. */
  deleteOldest(): void {
    for (const [run, ids] of this.runs) {
      for (const callId of ids.keys()) {
        this.delete(run, callId);
        return;
      }
    }
  }
}

/**
 * How many answered calls keep their tool name for later results of the same id (a
 * second result, a result after the id is reused): the latest ones, over all runs.
 */
export const ANSWERED_KEPT = 10_000;

/**
 * The tool name of each call id, to name results that do not say which tool answered
 * (OpenAI, Inspect, Langfuse): the first call of an id names every result of it. A
 * call's name is kept while it waits for its result, then among the last
 * ANSWERED_KEPT answered calls, so a document of any length holds its unanswered
 * calls and a bounded tail, not every call it ever read; a second result, or a call
 * reusing an id, more than that many answers later is read as if the first call were
 * not known.
 */
export class ToolNames {
  private readonly waiting = new ByRun<string>();
  private readonly answered = new ByRun<string>();

  /** A call: its tool names its id's results, unless an earlier call of the id still does. */
  call(runId: string | null, callId: string, tool: string): void {
    if (this.answered.get(runId, callId) !== undefined) return;
    this.waiting.setFirst(runId, callId, tool);
  }

  /** A result of the id: the tool of its call (undefined when none is known). */
  result(runId: string | null, callId: string): string | undefined {
    const tool = this.waiting.get(runId, callId);
    if (tool === undefined) return this.answered.get(runId, callId);
    this.waiting.delete(runId, callId);
    this.answered.setFirst(runId, callId, tool);
    if (this.answered.size > ANSWERED_KEPT) this.answered.deleteOldest();
    return tool;
  }
}
