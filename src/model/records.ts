import type { LosslessValue } from './lossless-value.js';

/**
 * The normalized trace model. Every ingest format produces these records;
 * every rule reads only these. Fields the source does not have are null.
 */

/** Where a record came from: the file as the user named it, 1-based line. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
}

interface RecordBase {
  readonly loc: SourceLocation;
  /** Run this record belongs to; null when the source has no run id (the whole file is one run). */
  readonly runId: string | null;
  /** Epoch milliseconds (or run-relative milliseconds), null when the source has none. */
  readonly ts: number | null;
  readonly spanId: string | null;
  /** catalog_sha256 carried on this record (for catalog-mismatch), null if absent. */
  readonly catalogSha256: string | null;
}

export interface CatalogTool {
  readonly name: string;
  /** The JSON Schema as recorded, undefined when only a hash or name is known. */
  readonly schema?: unknown;
  /** schema_sha256 as recorded for this tool, null when absent. */
  readonly schemaSha256: string | null;
  /** The schema with its number lexemes kept (`1.0` vs `1`), when the parser read it losslessly: hashes use it. */
  readonly schemaLossless?: LosslessValue;
}

export interface CatalogRecord extends RecordBase {
  readonly kind: 'catalog';
  readonly tools: readonly CatalogTool[];
  /** Names exactly as recorded (order kept; rules sort). */
  readonly names: readonly string[];
  /** Recorded catalog hash, null when the source has none. */
  readonly recordedSha256: string | null;
  /**
   * True when the source records the tools offered with each model request (the
   * frameworks do) rather than one frozen catalog for the run: such catalogs may
   * differ from request to request (agent hand-offs, a structured-output step).
   */
  readonly perRequest?: boolean;
}

export interface LlmSpan extends RecordBase {
  readonly kind: 'llm';
  readonly endTs: number | null;
  /**
   * True for a conversation message (transcripts, request/response logs): stamped
   * when it was written, after the model generated it, in a log that does not
   * record the user's turns. The gaps between such records are not model silence.
   */
  readonly message?: boolean;
}

/**
 * The runtime held generation while calls were outstanding (seed 001: "write a
 * blocked_on span. Do not stream."): not model output, and evidence the run waited.
 */
export interface BlockedSpan extends RecordBase {
  readonly kind: 'blocked_on';
  /** The call ids it waited on; empty when the span names none (it waits on whatever is outstanding). */
  readonly callIds: readonly string[];
}

export interface ToolCall extends RecordBase {
  readonly kind: 'tool_call';
  readonly callId: string | null;
  readonly tool: string;
  /** Parsed arguments; undefined when the source records none (only a hash). */
  readonly args: unknown;
  readonly argsHash: string | null;
  readonly deadlineMs: number | null;
  /** Position in a replay transcript, null elsewhere. */
  readonly index: number | null;
  /**
   * The arguments' canonical text when the parser read them with their number
   * lexemes (replay transcripts): integers past 2^53 kept, `1.0` apart from `1`.
   * Call identity uses it instead of canonicalizing `args`.
   */
  readonly argsCanonical?: string;
  /** schema_sha256 the call carries (the schema its harness offered for this tool), when it carries one. */
  readonly schemaSha256?: string | null;
}

export interface ToolResult extends RecordBase {
  readonly kind: 'tool_result';
  readonly callId: string | null;
  readonly tool: string | null;
  /** The result payload as recorded (string, object, content array); undefined when absent. */
  readonly content: unknown;
  readonly isError: boolean;
  readonly errorClass: string | null;
  readonly errorCode: string | null;
  readonly httpStatus: number | null;
  readonly exitCode: number | null;
  readonly index: number | null;
  /** The content's canonical text read with its number lexemes (replay transcripts); see ToolCall.argsCanonical. */
  readonly contentCanonical?: string;
}

export interface BoundaryRecord extends RecordBase {
  readonly kind: 'boundary';
  readonly callId: string | null;
  readonly processSha256: string | null;
  readonly adapterSha256: string | null;
  readonly modelSha256: string | null;
  readonly processLen: number | null;
  readonly adapterLen: number | null;
  readonly modelLen: number | null;
  readonly mutationHop: string | null;
  /**
   * adapter_canonical_sha256: the adapter output's hash over its canonical JSON
   * (sorted keys, no whitespace), kept beside the raw adapter_sha256 as seed 003
   * recommends: the raw hash sees every byte, the canonical one ignores key order.
   */
  readonly adapterCanonicalSha256?: string | null;
  /** Raw payloads when the record carries them (then rules hash them instead of trusting hashes). */
  readonly payloads: { readonly process?: string; readonly adapter?: string; readonly model?: string };
}

export interface RedactionReceipt extends RecordBase {
  readonly kind: 'redaction';
  readonly fieldPath: string;
  readonly ruleId: string;
  readonly originalLen: number | null;
  readonly token: string | null;
}

export type TraceRecord =
  | CatalogRecord
  | LlmSpan
  | BlockedSpan
  | ToolCall
  | ToolResult
  | BoundaryRecord
  | RedactionReceipt;

export type RecordKind = TraceRecord['kind'];
