/** Types of the big-file generator (gen-big.mjs), for the TypeScript tests. */
export type BigForm = 'otlp-lines' | 'otlp-document' | 'jaeger-document' | 'openai-lines' | 'openai-list' | 'openai-run-state' | 'langfuse-list';
export const FORMS: readonly BigForm[];
/** What was written, counted while writing. */
export interface BigTruth {
  readonly runs: number;
  readonly calls: number;
  /** Calls that got a result. */
  readonly results: number;
  /** Results that are errors (each one `unstructured-error`). */
  readonly errors: number;
  /** Calls to a tool not in the run's catalog (each one `unknown-tool`). */
  readonly unknown: number;
  /** Calls without a result (each one `orphan-call`). */
  readonly orphans: number;
  readonly lines: number;
  readonly bytes: number;
}
export function generate(form: BigForm, path: string, megabytes: number): BigTruth;
