import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by ingest: a decision a parser made that the reader should know about (e.g. pairing by order). */
export const ingestNote = defineRule({
  meta: {
    id: 'ingest-note',
    category: 'input',
    defaultSeverity: 'note',
    summary: 'A parser had to infer something the trace did not say (for example, pairing a tool span with its call by order).',
    likelyCause: 'The trace format or exporter leaves out a field (such as the tool call id).',
    nextAction: 'Record the missing field in the exporter so that nothing has to be inferred.',
    options: z.strictObject({}),
  },
});
