import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by ingest: a file whose parser left out records that look like tool calls or results. */
export const partialRead = defineRule({
  meta: {
    id: 'partial-read',
    category: 'input',
    defaultSeverity: 'warning',
    summary: 'The parser of a file skipped records that look like tool calls or results, so the audit saw only part of the run.',
    likelyCause: 'The file mixes in record types the format\'s parser does not read (a newer version of the writer, or another format in the same file).',
    nextAction: 'Check the skipped reasons in the JSON report (files[].skipped); force the right format with --input-format, or report the record type.',
    options: z.strictObject({}),
  },
});
