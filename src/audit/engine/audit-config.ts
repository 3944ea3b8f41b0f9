import type { CustomFormatSpec } from '../../ingest/custom/mapping.js';
import type { ReadLimits } from '../../io/limits.js';
import type { Severity } from '../../model/finding.js';
import type { FindingCaps } from '../findings/finding-caps.js';

/** What the job fails on: findings new against the base branch's report, or every finding (src/report/verdict/verdict.ts). */
export type Gate = 'new' | 'all';

/** A `suppress:` entry (src/report/verdict/suppress.ts applies them). */
export interface SuppressEntry {
  readonly fingerprint?: string;
  readonly rule?: string;
  readonly file?: string;
  readonly reason: string;
}

/** The lowest severity that fails an audit; never: report only. */
export const FAIL_LEVELS = ['error', 'warning', 'note', 'never'] as const;
export type FailOn = (typeof FAIL_LEVELS)[number];

export interface RuleSetting {
  readonly severity: Severity | 'off';
  readonly options: unknown;
}

/** Everything the core needs to run an audit; built only through `resolveConfig` (src/config/config.ts). */
export interface AuditConfig {
  readonly failOn: FailOn;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly rules: ReadonlyMap<string, RuleSetting>;
  readonly limits: ReadLimits;
  /** How many findings are listed (per rule and file, per audit); the engine's defaults when absent. */
  readonly findingCaps?: FindingCaps;
  /** How many runs the report lists (`limits.max-runs`); DEFAULT_MAX_RUNS when absent. */
  readonly maxRuns?: number;
  /** The configuration file's `formats:` (plain data; compiled per thread by src/ingest/custom/). */
  readonly formats?: readonly CustomFormatSpec[];
  /** The configuration file's `seal-redact` (the Action's seal step reads it; its input wins), when set. */
  readonly sealRedact?: boolean;
  /** The configured gate; absent: `new` when a baseline exists (the Action), else `all`. */
  readonly gate?: Gate;
  /** A trace file no record came out of fails the run (`fail-on-unread`); absent: it only leads the verdict. */
  readonly failOnUnread?: boolean;
  /** The configuration file's `identity:`: JSONPath queries naming a run's scenario on its JSON-lines records (findings/run-identity.ts). */
  readonly identity?: { readonly scenario: readonly string[] };
  /** Findings accepted with a reason; empty when none. */
  readonly suppress?: readonly SuppressEntry[];
}

