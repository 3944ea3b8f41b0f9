import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by the engine: a run whose records resumed after it was closed as idle, or that reached limits.max-run-records. */
export const runSplit = defineRule({
  meta: {
    id: 'run-split',
    category: 'engine',
    defaultSeverity: 'warning',
    summary: 'A run audited in parts: its records resumed after it had been idle long enough to be audited, or it reached limits.max-run-records.',
    likelyCause: 'Many runs interleave in one file (parallel workers writing to one log) further apart than limits.run-idle-records, or a log without run ids is one endless run.',
    nextAction: 'Give each worker its own trace file and each attempt its own run id, or raise limits.run-idle-records / limits.max-run-records (0: no limit).',
    options: z.strictObject({}),
  },
});
