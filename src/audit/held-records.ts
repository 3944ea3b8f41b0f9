import type { LlmSpan, SourceLocation } from '../model/records.js';
import type { HeldCall, HeldResult, HeldTrace } from '../model/run.js';

/**
 * The held forms of the records a run keeps by the thousand (issue 22): small class
 * instances with the fields the rules read, so a run's memory per call is a few
 * pointers. What every record of a run shares (its file and run id) is one Origin;
 * `kind` lives on the prototype and `loc` is made when read (from the origin's file
 * and the record's line); the facts that are nearly always null sit in one `rare`
 * object, absent when all are null; booleans are bits of one small integer. The
 * interfaces the rules read (HeldCall, HeldResult, LlmSpan) are unchanged.
 */

/** The file and run id the records of one run share. */
export class Origin {
  constructor(
    readonly file: string,
    readonly runId: string | null,
  ) {}
}

/** One Origin per (file, run id) while a file is read; forgotten past `limit` run ids (records then get a new one). */
export class Origins {
  private readonly byRun = new Map<string | null, Origin>();
  private last: Origin | null = null;

  constructor(private readonly limit = 1024) {}

  of(loc: SourceLocation, runId: string | null): Origin {
    const last = this.last;
    if (last !== null && last.runId === runId && last.file === loc.file) return last;
    let origin = this.byRun.get(runId);
    if (origin === undefined || origin.file !== loc.file) {
      if (this.byRun.size >= this.limit) this.byRun.clear();
      origin = new Origin(loc.file, runId);
      this.byRun.set(runId, origin);
    }
    this.last = origin;
    return origin;
  }
}

/** What every held record reads from its origin and line. */
abstract class Placed {
  constructor(
    protected readonly origin: Origin,
    protected readonly line: number,
  ) {}

  get loc(): SourceLocation {
    return { file: this.origin.file, line: this.line };
  }

  get runId(): string | null {
    return this.origin.runId;
  }
}

/** A call's facts that are nearly always null. */
export interface CallRare {
  readonly catalogSha256: string | null;
  readonly argsHash: string | null;
  readonly deadlineMs: number | null;
  readonly index: number | null;
  readonly schemaSha256?: string | null;
}

export class HeldCallRecord extends Placed implements HeldCall {
  constructor(
    origin: Origin,
    line: number,
    readonly ts: number | null,
    readonly spanId: string | null,
    readonly callId: string | null,
    readonly tool: string,
    readonly argsKey: string | null,
    readonly hasArgs: boolean,
    private readonly rare: CallRare | null,
  ) {
    super(origin, line);
  }

  get kind(): 'tool_call' {
    return 'tool_call';
  }
  get catalogSha256(): string | null {
    return this.rare === null ? null : this.rare.catalogSha256;
  }
  get argsHash(): string | null {
    return this.rare === null ? null : this.rare.argsHash;
  }
  get deadlineMs(): number | null {
    return this.rare === null ? null : this.rare.deadlineMs;
  }
  get index(): number | null {
    return this.rare === null ? null : this.rare.index;
  }
  get schemaSha256(): string | null | undefined {
    return this.rare === null ? undefined : this.rare.schemaSha256;
  }
}

/** A result's facts that are nearly always null. */
export interface ResultRare {
  readonly catalogSha256: string | null;
  readonly errorClass: string | null;
  readonly errorCode: string | null;
  readonly httpStatus: number | null;
  readonly exitCode: number | null;
  readonly index: number | null;
  readonly contentErrorCode: string | null;
  readonly stackTrace: HeldTrace | null;
}

export const IS_ERROR = 1;
export const HAS_CONTENT = 2;
export const ERROR_IN_CONTENT = 4;

export class HeldResultRecord extends Placed implements HeldResult {
  constructor(
    origin: Origin,
    line: number,
    readonly ts: number | null,
    readonly spanId: string | null,
    readonly callId: string | null,
    readonly tool: string | null,
    readonly responseKey: string | null,
    private readonly flags: number,
    private readonly rare: ResultRare | null,
  ) {
    super(origin, line);
  }

  get kind(): 'tool_result' {
    return 'tool_result';
  }
  get isError(): boolean {
    return (this.flags & IS_ERROR) !== 0;
  }
  get hasContent(): boolean {
    return (this.flags & HAS_CONTENT) !== 0;
  }
  get errorInContent(): boolean {
    return (this.flags & ERROR_IN_CONTENT) !== 0;
  }
  get catalogSha256(): string | null {
    return this.rare === null ? null : this.rare.catalogSha256;
  }
  get errorClass(): string | null {
    return this.rare === null ? null : this.rare.errorClass;
  }
  get errorCode(): string | null {
    return this.rare === null ? null : this.rare.errorCode;
  }
  get httpStatus(): number | null {
    return this.rare === null ? null : this.rare.httpStatus;
  }
  get exitCode(): number | null {
    return this.rare === null ? null : this.rare.exitCode;
  }
  get index(): number | null {
    return this.rare === null ? null : this.rare.index;
  }
  get contentErrorCode(): string | null {
    return this.rare === null ? null : this.rare.contentErrorCode;
  }
  get stackTrace(): HeldTrace | null {
    return this.rare === null ? null : this.rare.stackTrace;
  }
}

export class HeldLlmRecord extends Placed implements LlmSpan {
  constructor(
    origin: Origin,
    line: number,
    readonly ts: number | null,
    readonly spanId: string | null,
    readonly catalogSha256: string | null,
    readonly endTs: number | null,
    readonly message: boolean | undefined,
  ) {
    super(origin, line);
  }

  get kind(): 'llm' {
    return 'llm';
  }
}
