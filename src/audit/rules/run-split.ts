import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by the engine: a run whose records resumed after it was closed as idle. */
export const runSplit = defineRule({
  meta: {
    id: 'run-split',
    category: 'engine',
    defaultSeverity: 'warning',
    summary: 'A run whose records resumed after it had been idle long enough to be audited; its parts were audited separately.',
    likelyCause: 'Many runs interleave in one file (parallel workers writing to one log) further apart than limits.run-idle-records.',
    nextAction: 'Give each worker its own trace file, or raise limits.run-idle-records (0 keeps every run open until the file ends).',
    options: z.strictObject({}),
  },
});
