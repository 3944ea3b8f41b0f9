import { sha256Hex } from '../../canonical/index.js';
import type { ScenarioNote } from '../../ingest/types.js';
import type { HeldRecord } from '../../model/run.js';
import type { FindingDraft } from '../rules/rule-types.js';
import { fingerprint } from './findings.js';
import { normaliseMessage, normalisePath } from './identity-path.js';

type Emit = (ruleId: string, draft: FindingDraft) => void;

/** Findings a run holds back while its scenario may still be named; past this many it is settled with what is known. */
const MAX_HELD_FINDINGS = 4096;

interface RunState {
  /** Where the run first appeared among the file's runs (0-based), -1 before a record of it arrived. */
  position: number;
  /** The name the configuration's query found (it outranks the trace's own), and the trace's. */
  configured: string | null;
  name: string | null;
  input: string | null;
  /** The run's scenario once settled (what its findings' fingerprints hold). */
  scenario: string | null;
  /** Findings waiting for the scenario: rule id, draft, the identity of its call (null: none). */
  held: Array<[string, FindingDraft, string | null]>;
  /** Call id → its call's identity (tool, canonical arguments, occurrence), while the run (part) is open; null before its first call and once its rules ran. */
  calls: Map<string, string> | null;
  /** How many calls of each (tool, canonical arguments) the run (part) made so far. */
  seen: Map<string, number> | null;
}

/**
 * The identity of one file's findings, which a rerun of the same agent suite keeps
 * (docs/report-schema.md, "What a fingerprint is made of"): no run, call, trace or
 * span id, session id, line, time or generated file-name segment. A finding about a
 * run holds the run's scenario (a name the trace carries, else a digest of its task
 * input, else its position in the file), and about a call the call's tool, canonical
 * arguments and occurrence among the identical calls of its run. A run's findings
 * wait (at most MAX_HELD_FINDINGS) until its scenario is settled: when a name for it
 * arrives, or when the run is complete. A finding about the file (an `input` rule's)
 * holds the file and its content key.
 */
export class FileIdentity {
  readonly #runs = new Map<string, RunState>();
  /** Runs with no scenario are known by their run id (normalised), not their position: see `byRunId`. */
  #byRunId = false;
  #positions = 0;
  /** The run last looked up (records of one run come in stretches). */
  #lastKey = '';
  #last: RunState | null = null;
  /** A scenario the configuration's `identity.scenario` query found on a line, for the run of that line's records. */
  #lineName: { line: number; name: string } | null = null;

  constructor(
    /** The file's path inside what was audited, normalised (identity-path.ts). */
    readonly path: string,
    private readonly isFileRule: (ruleId: string) => boolean,
    /** The configuration names scenarios (`identity.scenario`): a trace's own name then waits for the run's end. */
    private readonly configured = false,
  ) {}

  /**
   * The format's lines may be read on several threads, each seeing only its runs (a
   * format with a run key: src/audit/route/): a run's position in the file is then not
   * known, and a run with no scenario is known by its run id with its generated
   * segments made generic (identity-path.ts), the same on every thread layout.
   */
  byRunId(): void {
    this.#byRunId = true;
  }

  /** What each record of the file tells: its run's place among the runs, and a call's identity. */
  arrive(held: HeldRecord): void {
    const run = this.#run(held.runId);
    if (run.position < 0) run.position = this.#positions++;
    const named = this.#lineName;
    if (named !== null) {
      if (held.loc.line === named.line) {
        if (run.configured === null) run.configured = named.name;
        this.#settle(run, held.runId);
      } else if (held.loc.line > named.line) this.#lineName = null;
    }
    if (held.kind !== 'tool_call' || held.callId === null) return;
    const what = held.argsKey ?? `${held.tool}\u0000${held.argsHash ?? ''}`;
    const seen = (run.seen ??= new Map());
    const n = seen.get(what) ?? 0;
    seen.set(what, n + 1);
    const calls = (run.calls ??= new Map());
    if (!calls.has(held.callId)) calls.set(held.callId, `${what}#${n}`);
  }

  /** A scenario name or task input the trace gives for a run (the first of each counts). */
  scenario(note: ScenarioNote): void {
    const run = this.#run(note.runId);
    if (note.input !== undefined && run.input === null) run.input = note.input;
    if (note.name !== undefined && note.name !== '' && run.name === null) {
      run.name = note.name;
      if (!this.configured) this.#settle(run, note.runId);
    }
  }

  /** A scenario found by the configuration's query on `line`: it names the run of that line's records. */
  lineScenario(line: number, name: string): void {
    this.#lineName = { line, name };
  }

  /** The run is complete (or a part of it is): its scenario is settled, its held findings go on, its call identities are let go. */
  complete(runId: string | null, emit: Emit): void {
    const run = this.#run(runId);
    this.#settle(run, runId);
    this.#release(run, emit);
  }

  /** The run's rules have run: its call identities are no longer asked for. */
  forgetCalls(runId: string | null): void {
    const run = this.#runs.get(runId ?? '');
    if (run && run.scenario !== null) {
      run.calls = null;
      run.seen = null;
    }
  }

  /** The end of the file: every run still holding findings is settled and they go on. */
  end(emit: Emit): void {
    for (const [key, run] of this.#runs) {
      this.#settle(run, key);
      this.#release(run, emit);
    }
  }

  /** `emit` with the fingerprint of each finding filled in (held back while its run's scenario is open). */
  emitter(emit: Emit): Emit {
    return (ruleId, draft) => {
      if (draft.fingerprint !== undefined) return emit(ruleId, draft);
      if (this.isFileRule(ruleId)) {
        const key = draft.key ?? normaliseMessage(draft.message);
        return emit(ruleId, { ...draft, place: this.path, fingerprint: fingerprint([ruleId, this.path, null, null, draft.tool ?? null, key]) });
      }
      const run = this.#run(draft.runId ?? null);
      // A call the run did not make (a result's unknown id) is known by its tool alone.
      const call = draft.callId === undefined || draft.callId === null ? null : (run.calls?.get(draft.callId) ?? `?${draft.tool ?? ''}`);
      if (run.scenario !== null) return emit(ruleId, this.#final(ruleId, draft, call, run.scenario));
      run.held.push([ruleId, draft, call]);
      if (run.held.length >= MAX_HELD_FINDINGS) {
        this.#settle(run, draft.runId ?? null);
        this.#release(run, emit);
      }
    };
  }

  #final(ruleId: string, draft: FindingDraft, call: string | null, scenario: string): FindingDraft {
    return { ...draft, place: this.path, fingerprint: fingerprint([ruleId, this.path, scenario, call, draft.tool ?? null, draft.key ?? '']) };
  }

  #release(run: RunState, emit: Emit): void {
    if (run.held.length === 0) return;
    const held = run.held;
    run.held = [];
    for (const [ruleId, draft, call] of held) emit(ruleId, this.#final(ruleId, draft, call, run.scenario!));
  }

  #settle(run: RunState, runId: string | null): void {
    if (run.scenario !== null) return;
    const name = run.configured ?? run.name;
    if (name !== null) run.scenario = `name:${name.length > 200 ? digest(name) : name}`;
    else if (run.input !== null) run.scenario = `input:${digest(run.input)}`;
    else run.scenario = this.#byRunId ? `run:${normalisePath(runId ?? '')}` : `position:${run.position}`;
  }

  #run(runId: string | null): RunState {
    const key = runId ?? '';
    if (key === this.#lastKey && this.#last !== null) return this.#last;
    let run = this.#runs.get(key);
    if (!run) this.#runs.set(key, (run = { position: -1, configured: null, name: null, input: null, scenario: null, held: [], calls: null, seen: null }));
    this.#lastKey = key;
    this.#last = run;
    return run;
  }
}

/** A task input as its identity: whitespace runs made one space, trimmed, hashed. */
function digest(input: string): string {
  return sha256Hex(input.replace(/\s+/g, ' ').trim()).slice(0, 16);
}
