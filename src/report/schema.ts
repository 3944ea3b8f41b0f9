import { z } from 'zod';
import { findingSchema, severitySchema, type Finding } from '../model/finding.js';
import { REPORT_SCHEMA_VERSION } from './schema-version.js';
import { FAIL_LEVELS } from '../audit/engine/audit-config.js';

const count = z.number().int().nonnegative();

/** The verdict's coverage (src/report/verdict/coverage.ts), as the JSON report carries it. */
const coverageSchema = z.strictObject({
  files: count,
  read: count,
  unread: z.array(
    z.strictObject({
      path: z.string(),
      reason: z.enum(['unknown-format', 'unreadable', 'skipped', 'no-records']),
      format: z.string().optional(),
      toolShaped: count.optional(),
    }),
  ),
  partlyRead: count,
  notTraces: z.array(z.strictObject({ path: z.string(), reason: z.string() })),
  records: count,
  toolCalls: count,
  toolResults: count,
  skipped: count,
});

/** The verdict every edge shows (src/report/verdict/verdict.ts); `coverage` is its Coverage object as is. */
export const verdictSchema = z.strictObject({
  state: z.enum(['nothing-audited', 'failed', 'passed']),
  headline: z.string(),
  failed: z.boolean(),
  gate: z.enum(['new', 'all']),
  failOn: z.enum(FAIL_LEVELS),
  coverage: coverageSchema,
});

/** The comparison with the base reports (src/report/verdict/delta.ts): which were used, the counts, the fixed findings. */
export const comparisonSchema = z.strictObject({
  baselines: z.array(z.strictObject({ source: z.string(), runId: count.nullable(), version: z.string(), time: z.string().nullable() })),
  counts: z.strictObject({ new: count, unchanged: count, flaky: count, notCompared: count, fixed: count }),
  fixed: z.array(findingSchema),
});

export const reportSchema = z.strictObject({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.strictObject({ name: z.literal('agent-trace-audit'), version: z.string() }),
  summary: z.strictObject({
    /** Trace files: the files[] entries that are trace-like (a file with `notTrace` is not counted). */
    files: count,
    runs: count,
    toolCalls: count,
    toolResults: count,
    findings: z.strictObject({ error: count, warning: count, note: count }),
  }),
  /** The verdict the report was judged with (absent in reports written before it was added). */
  verdict: verdictSchema.optional(),
  /** Present when the findings were compared with base reports. */
  comparison: comparisonSchema.optional(),
  files: z.array(
    z.strictObject({
      path: z.string(),
      format: z.string(),
      records: count,
      runs: count,
      /** Source records the parser read and left out, per reason (absent in reports written before 0.2). */
      skipped: z.array(z.strictObject({ reason: z.string(), count, firstLine: count })).optional(),
      /** Tool calls and results read from the file (absent in reports written before 0.2). */
      toolCalls: count.optional(),
      toolResults: count.optional(),
      /** Places holding tool-shaped content the parser did not read (partial-read); absent when none. */
      toolShaped: count.optional(),
      /** What the file is when it is not trace-like at all (a README, an image): listed, never counted (summary.files leaves it out). */
      notTrace: z.string().optional(),
    }),
  ),
  runs: z.array(
    z.strictObject({
      file: z.string(),
      runId: z.string().nullable(),
      format: z.string(),
      catalogSha256: z.string().nullable(),
      toolCalls: count,
      toolResults: count,
    }),
  ),
  /** Runs past `limits.max-runs`, counted and not listed in `runs` (absent when every run is listed). */
  omittedRuns: z.strictObject({ runs: count, toolCalls: count, toolResults: count }).optional(),
  /** Distinct catalogs past `limits.max-runs`, counted and not listed in `catalogs` (absent when every one is listed). */
  omittedCatalogs: count.optional(),
  /** Each distinct catalog the runs received: tool names and schema hashes (absent in reports written before 0.1). */
  catalogs: z
    .array(
      z.strictObject({
        sha256: z.string().nullable(),
        tools: z.array(z.strictObject({ name: z.string(), schemaSha256: z.string().nullable() })),
      }),
    )
    .optional(),
  rules: z.array(
    z.strictObject({
      id: z.string(),
      severity: severitySchema,
      summary: z.string(),
      likelyCause: z.string(),
      nextAction: z.string(),
      /** The rule's version (absent in reports written before 0.1.0 carried it: read as 1). */
      version: z.number().int().positive().optional(),
    }),
  ),
  /** Every rule the audit ran, with its version (absent in older reports: see src/report/verdict/rule-versions.ts). */
  rulesRun: z.array(z.strictObject({ id: z.string(), version: z.number().int().positive() })).optional(),
  metrics: z.record(z.string(), z.unknown()),
  findings: z.array(findingSchema),
  /** Findings taken out by the configuration's `suppress:` entries, with their reason (absent when none is configured). */
  suppressed: z
    .strictObject({
      count,
      entries: z.array(
        z.strictObject({
          fingerprint: z.string().optional(),
          rule: z.string().optional(),
          file: z.string().optional(),
          reason: z.string(),
          matched: count,
        }),
      ),
      findings: z.array(findingSchema.extend({ reason: z.string() })),
    })
    .optional(),
  /** The workflow artifacts whose trace files were read (the Action's `artifacts` input); absent when none. */
  artifacts: z.array(z.strictObject({ name: z.string(), id: count, digest: z.string(), files: count })).optional(),
});

/**
 * The JSON report. Its findings are an array (a report read back, merged, or
 * materialized for a renderer), or, in a report just built from an audit, the
 * audit's finding store, read once, in order, when the report is written
 * (`renderJsonPieces`).
 */
export type Report<F extends Iterable<Finding> = Finding[]> = Omit<z.infer<typeof reportSchema>, 'findings'> & { findings: F };
export type ReportCatalog = NonNullable<Report['catalogs']>[number];
