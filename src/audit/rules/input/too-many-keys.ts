import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by ingest: a JSON-lines record with more object keys than limits.max-record-keys, left out of the audit. */
export const tooManyKeys = defineRule({
  meta: {
    id: 'too-many-keys',
    category: 'input',
    defaultSeverity: 'error',
    summary: 'A record with more object keys (at every level together) than limits.max-record-keys: it was not read, so the audit left it out.',
    likelyCause: 'A writer serialized a huge map (a whole cache, a table keyed by id) into one record, or the file was built to make the audit slow.',
    nextAction: 'Write such data as a list or a string, or split it over several records; raise limits.max-record-keys only for a trace you trust.',
    options: z.strictObject({}),
  },
});
