import type { z } from 'zod';
import type { Severity } from '../../model/finding.js';
import type { CatalogRecord, SourceLocation, ToolCall, ToolResult } from '../../model/records.js';
import type { HeldCall, HeldResult, Run } from '../../model/run.js';
import type { RunMemos } from '../held/memo.js';

export type RuleCategory = 'input' | 'catalog' | 'pairing' | 'error-hygiene' | 'boundary' | 'replay' | 'engine';

export interface RuleMeta<O> {
  /** Stable kebab-case id: part of the public interface. */
  readonly id: string;
  readonly category: RuleCategory;
  readonly defaultSeverity: Severity;
  /** One line: what the rule finds. */
  readonly summary: string;
  /** Triage columns: what usually causes it, and what to do first. */
  readonly likelyCause: string;
  readonly nextAction: string;
  /** Options with defaults; strict, so an unknown option is a configuration error. */
  readonly options: z.ZodType<O>;
  /**
   * The rule's version (2 when absent): raised when a change makes the rule find other
   * findings in the same trace (or fingerprint them otherwise). Every rule went from 1 to 2
   * when fingerprints began to name a finding by its scenario instead of its ids (0.2): a
   * base report of 0.1 shares no fingerprint with a newer one, so it is not compared. A base report that ran
   * the rule at another version is not compared for it (src/report/verdict/rule-versions.ts).
   */
  readonly version?: number;
}

/** The version of every rule whose meta names none: 2, the fingerprints by scenario (see RuleMeta.version). */
export const DEFAULT_RULE_VERSION = 2;

/** A rule's version as reports carry it (`rules[].version`, `rulesRun[]`): DEFAULT_RULE_VERSION unless its meta says. */
export function ruleVersion(meta: Pick<RuleMeta<unknown>, 'version'>): number {
  return meta.version ?? DEFAULT_RULE_VERSION;
}

/** What a rule reports; the engine adds severity, file, fingerprint and sanitizes the text. */
export interface FindingDraft {
  readonly loc: SourceLocation;
  readonly message: string;
  readonly runId?: string | null;
  readonly callId?: string | null;
  readonly tool?: string | null;
  /**
   * What makes this finding distinct for its fingerprint among the rule's findings of
   * the same run, call and tool: content, never a line, id or time (a rerun of the suite
   * must give the same key). Default: none for a finding about a run, the message with
   * its numbers made generic for a finding about a file.
   */
  readonly key?: string;
  /** Set by the engine (findings/run-identity.ts), never by a rule: the finding's fingerprint. */
  readonly fingerprint?: string;
  /** Set by the engine: the file's normalised path inside what was audited (identity-path.ts). */
  readonly place?: string;
}

export type ReportFn = (draft: FindingDraft) => void;

export interface RuleContext<O, S> {
  readonly options: O;
  /** Cross-run state created by `init` (one per audit). */
  readonly state: S;
  /** The memos of the run being checked (in `check`; a fresh, empty one in `finish`). */
  readonly memos: RunMemos;
  /**
   * Add to a counter in the report's metrics (`<rule-id>.<name>`). Metrics are
   * additive so that workers and shard reports can be summed: record counts and
   * histograms (`{ "3": 2 }`), never ratios or medians; renderers derive those.
   */
  metric(name: string, value: number | Record<string, number>): void;
}

/** Facts of a payload that are taken at arrival only when an active rule keeps them (see HeldResult). */
export type KeptFact = 'response-key' | 'stack-trace';

/**
 * A call, result or catalog record as it arrives, before its run holds it: the
 * record with its payload, what the run keeps of it, and the run's catalog so far
 * (its first catalog record; for a catalog record, possibly this one).
 */
export type Arrival =
  | { readonly kind: 'tool_call'; readonly record: ToolCall; readonly held: HeldCall; readonly catalog: CatalogRecord | null }
  | { readonly kind: 'tool_result'; readonly record: ToolResult; readonly held: HeldResult; readonly catalog: CatalogRecord | null }
  | { readonly kind: 'catalog'; readonly record: CatalogRecord; readonly held: CatalogRecord; readonly catalog: CatalogRecord | null };

export interface Rule<O = unknown, S = unknown> {
  readonly meta: RuleMeta<O>;
  init?(options: O): S;
  /**
   * Called with each call, result and catalog record as it arrives, in file order,
   * on whichever thread groups its run: the one place a rule reads payloads
   * (`args`, `content`), which runs do not hold. A crash here is the run's
   * `rule-crash`, reported when the run is complete (and `check` is then skipped).
   */
  record?(arrival: Arrival, ctx: RuleContext<O, S>, report: ReportFn): void;
  /** Payload facts the rule's `check` reads from held results (taken at arrival for every result). */
  readonly keeps?: readonly KeptFact[];
  /** Called once per run, after the run is complete. */
  check?(run: Run, ctx: RuleContext<O, S>, report: ReportFn): void;
  /** Called once after every run of the audit (cross-run rules). */
  finish?(ctx: RuleContext<O, S>, report: ReportFn): void;
  /**
   * Joins the states of two workers that audited different files (required with
   * `finish`). Must be associative and commutative, and states must be plain
   * data (objects, arrays, Maps, Sets) so they can cross a worker boundary.
   */
  merge?(a: S, b: S): S;
}

/** Keeps a rule's option and state types together while the registry holds `Rule<any, any>`. */
export function defineRule<O, S = undefined>(rule: Rule<O, S>): Rule<O, S> {
  return rule;
}
