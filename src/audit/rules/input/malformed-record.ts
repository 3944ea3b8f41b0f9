import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by ingest: a line that is not valid UTF-8, not JSON, too long or deep, or fits no dialect. */
export const malformedRecord = defineRule({
  meta: {
    id: 'malformed-record',
    category: 'input',
    defaultSeverity: 'error',
    summary: 'A line or record that could not be read: invalid UTF-8, not JSON, too long, too deep, duplicate keys, or no known dialect.',
    likelyCause: 'The trace writer crashed mid-write, two writers interleaved, or the record shape changed.',
    nextAction: 'Fix the writer at the reported line; the rest of the file was still audited.',
    options: z.strictObject({}),
  },
});
