import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by ingest: the last record is complete but not terminated by a newline. */
export const missingFinalNewline = defineRule({
  meta: {
    id: 'missing-final-newline',
    category: 'input',
    defaultSeverity: 'note',
    summary: 'The last record is complete but has no final newline; appending to the file would merge two records.',
    likelyCause: 'The writer joins records with newlines instead of ending each with one.',
    nextAction: 'End every JSONL record with a newline.',
    options: z.strictObject({}),
  },
});
