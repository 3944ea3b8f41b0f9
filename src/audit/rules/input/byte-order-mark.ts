import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by ingest: the file starts with a UTF-8 byte order mark. */
export const byteOrderMark = defineRule({
  meta: {
    id: 'byte-order-mark',
    category: 'input',
    defaultSeverity: 'note',
    summary: 'The file starts with a UTF-8 byte order mark, which many JSONL readers reject.',
    likelyCause: 'The trace was written or edited with a tool that adds a BOM (often on Windows).',
    nextAction: 'Write UTF-8 without a BOM.',
    options: z.strictObject({}),
  },
});
