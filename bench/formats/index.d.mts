/** Types of the per-format generators' exports that TypeScript tests use. */
export interface SessionCounts {
  bytes: number;
  lines: number;
  sessions: number;
  records: number;
  calls: number;
  results: number;
  errors: number;
}
/** What every generator's `write` wrote (a session generator's counts have more). */
export interface WrittenCounts {
  readonly bytes: number;
  readonly runs: number;
  readonly calls: number;
  readonly results: number;
}
export interface FormatGenerator {
  /** The row's name. */
  readonly id: string;
  /** The CLI's format id of what it writes. */
  readonly format: string;
  readonly baseline: 'lines' | 'document';
  readonly ext: 'jsonl' | 'json';
  readonly sources: readonly string[];
  write(path: string, bytes: number, seed?: number): Promise<WrittenCounts>;
  /** JSONL session generators only: one session's text, for writeSessions. */
  session?(rand: () => number, index: number, counts: SessionCounts): string;
}
export interface SessionGenerator extends FormatGenerator {
  session(rand: () => number, index: number, counts: SessionCounts): string;
}
export const GENERATORS: readonly FormatGenerator[];
export function writeSessions(path: string, generator: SessionGenerator, bytes: number, seed?: number): Promise<SessionCounts>;
