import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by ingest: the last line stops mid-record (or mid-character), or a gzip stream ends early. */
export const truncatedTail = defineRule({
  meta: {
    id: 'truncated-tail',
    category: 'input',
    defaultSeverity: 'error',
    summary: 'The file ends inside a record: the writer was killed or the file was cut short.',
    likelyCause: 'The agent process was killed (timeout, OOM) before it flushed the trace, or an upload was cut.',
    nextAction: 'Flush and close the trace on exit; treat the run as incomplete, not as a model failure.',
    options: z.strictObject({}),
  },
});
