import type { LlmSpan, SourceLocation } from '../../model/records.js';
import type { HeldCall, HeldResult, HeldTrace } from '../../model/run.js';
import type { Origin } from './origin.js';

/**
 * The held forms of the records a run keeps by the thousand (issue 22): small class
 * instances with the fields the rules read, so a run's memory per call is a few
 * pointers. What every record of a run shares (its file and run id) is one Origin (origin.ts);
 * `kind` lives on the prototype and `loc` is made when read (from the origin's file
 * and the record's line); a whole-millisecond time is a small difference from the
 * run's first one; the facts that are nearly always null sit in one `rare` object,
 * absent when all are null; booleans are bits of one small integer. The
 * interfaces the rules read (HeldCall, HeldResult, LlmSpan) are unchanged.
 */

/** Bits of a held record's flags (four at most): its time is a difference from its origin's base (TS_DELTA). */
export const TS_DELTA = 1;

/** What every held record reads from its origin and line, and its time. */
abstract class Placed {
  /**
   * The record's line and flags in one small integer, `line * 16 + flags` (a field less
   * per record; past 2^27 lines a boxed number, still exact): `& 15` reads the flags.
   */
  protected readonly lineFlags: number;
  /** The time, or its difference from the origin's base (TS_DELTA). */
  protected readonly time: number | null;

  constructor(
    protected readonly origin: Origin,
    line: number,
    time: number | null,
    flags: number,
  ) {
    this.lineFlags = line * 16 + flags;
    this.time = time;
  }

  get ts(): number | null {
    return (this.lineFlags & TS_DELTA) !== 0 ? this.origin.base! + this.time! : this.time;
  }

  get loc(): SourceLocation {
    return { file: this.origin.file, line: (this.lineFlags - (this.lineFlags & 15)) / 16 };
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

export const HAS_ARGS = 2;

export class HeldCallRecord extends Placed implements HeldCall {
  constructor(
    origin: Origin,
    line: number,
    time: number | null,
    flags: number,
    readonly spanId: string | null,
    readonly callId: string | null,
    readonly tool: string,
    readonly argsKey: string | null,
    private readonly rare: CallRare | null,
  ) {
    super(origin, line, time, flags);
  }

  get hasArgs(): boolean {
    return (this.lineFlags & HAS_ARGS) !== 0;
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

export const IS_ERROR = 2;
export const HAS_CONTENT = 4;
export const ERROR_IN_CONTENT = 8;

export class HeldResultRecord extends Placed implements HeldResult {
  constructor(
    origin: Origin,
    line: number,
    time: number | null,
    flags: number,
    readonly spanId: string | null,
    readonly callId: string | null,
    readonly tool: string | null,
    readonly responseKey: string | null,
    private readonly rare: ResultRare | null,
  ) {
    super(origin, line, time, flags);
  }

  get kind(): 'tool_result' {
    return 'tool_result';
  }
  get isError(): boolean {
    return (this.lineFlags & IS_ERROR) !== 0;
  }
  get hasContent(): boolean {
    return (this.lineFlags & HAS_CONTENT) !== 0;
  }
  get errorInContent(): boolean {
    return (this.lineFlags & ERROR_IN_CONTENT) !== 0;
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

export const END_DELTA = 2;
export const MESSAGE_TRUE = 4;
export const MESSAGE_FALSE = 8;

export class HeldLlmRecord extends Placed implements LlmSpan {
  constructor(
    origin: Origin,
    line: number,
    time: number | null,
    flags: number,
    readonly spanId: string | null,
    readonly catalogSha256: string | null,
    /** The end time, or its difference from the origin's base (END_DELTA). */
    private readonly end: number | null,
  ) {
    super(origin, line, time, flags);
  }

  get kind(): 'llm' {
    return 'llm';
  }
  get endTs(): number | null {
    return (this.lineFlags & END_DELTA) !== 0 ? this.origin.base! + this.end! : this.end;
  }
  get message(): boolean | undefined {
    return (this.lineFlags & MESSAGE_TRUE) !== 0 ? true : (this.lineFlags & MESSAGE_FALSE) !== 0 ? false : undefined;
  }
}
