/** Types of the one-document generator (documents.mjs), for the TypeScript tests. */
export const DOCUMENT_FORMATS: readonly string[];
export function writeDocument(format: string, path: string, bytes: number, padKb?: number): { format: string; bytes: number; runs: number; calls: number; results: number };
