import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by the engine: a rule threw on a run. The audit goes on; the crash is a finding, never a crash. */
export const ruleCrash = defineRule({
  meta: {
    id: 'rule-crash',
    category: 'engine',
    defaultSeverity: 'error',
    summary: 'A rule failed on a run; that rule\'s findings for the run are missing.',
    likelyCause: 'A bug in agent-trace-audit triggered by an unusual record.',
    nextAction: 'Report it with the file and line (rerun with --debug for the stack); other rules still ran.',
    options: z.strictObject({}),
  },
});
