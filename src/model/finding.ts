import { z } from 'zod';

export const SEVERITIES = ['error', 'warning', 'note'] as const;
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severitySchema>;

/** Rank for sorting and gating: error is the most severe. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 3, warning: 2, note: 1 };

export const findingSchema = z.strictObject({
  ruleId: z.string(),
  severity: severitySchema,
  message: z.string(),
  file: z.string(),
  line: z.number().int().nonnegative(),
  runId: z.string().nullable(),
  callId: z.string().nullable(),
  tool: z.string().nullable(),
  fingerprint: z.string().regex(/^[0-9a-f]{16}$/),
  /** Set when the report was compared with base reports (src/report/verdict/delta.ts): new, unchanged, flaky or not compared. */
  baselineState: z.enum(['new', 'unchanged', 'flaky', 'not-compared']).optional(),
  /** A flaky finding's count: in `runs` of the `of` base reports that ran its rule. */
  baselineSeen: z.strictObject({ runs: z.number().int().positive(), of: z.number().int().positive() }).optional(),
});
export type Finding = z.infer<typeof findingSchema>;
