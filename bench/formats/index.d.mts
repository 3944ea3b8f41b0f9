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
export interface FormatGenerator {
  readonly id: string;
  readonly baseline: 'lines' | 'document';
  session(rand: () => number, index: number, counts: SessionCounts): string;
}
export const GENERATORS: readonly FormatGenerator[];
export function writeSessions(path: string, generator: FormatGenerator, bytes: number, seed?: number): Promise<SessionCounts>;
