import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by ingest: a file that fits no supported trace format. */
export const unknownFormat = defineRule({
  meta: {
    id: 'unknown-format',
    category: 'input',
    defaultSeverity: 'warning',
    summary: 'A collected file fits no supported trace format, so nothing in it was audited.',
    likelyCause: 'The trace globs match files that are not traces, or the framework writes a format not yet supported.',
    nextAction: 'Narrow the globs, or force the format with --input-format.',
    options: z.strictObject({}),
  },
});
