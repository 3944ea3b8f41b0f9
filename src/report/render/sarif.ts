import { ruleById } from '../../audit/rules/index.js';
import type { Finding, Severity } from '../../model/finding.js';
import { sanitizeText } from '../../sanitize/text.js';
import { mostSevere } from '../most-severe.js';
import { PROJECT_URL, ruleDocsUrl } from './rule-docs.js';
import { omittedRunsNote } from '../run-cap.js';
import type { Report } from '../schema.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
/** partialFingerprints key: versioned so a change of fingerprint scheme never matches old alerts. */
export const FINGERPRINT_KEY = 'agentTraceAudit/v2';

const LEVEL: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = { error: 'error', warning: 'warning', note: 'note' };

/**
 * Results per run that code scanning keeps: it stores 5,000 and rejects an upload of
 * more than 25,000. A report with more findings gets its 5,000 most severe (errors,
 * then warnings, then notes; report order within a level), and says so in the log.
 */
export const SARIF_MAX_RESULTS = 5000;

/** A suppression's reason as its justification: the configuration's text, sanitized and capped as the comment shows it. */
const JUSTIFICATION_MAX = 300;

export interface SarifOptions {
  /** Results at most (code scanning's limit by default). */
  readonly maxResults?: number;
}

type Suppressed = NonNullable<Report['suppressed']>['findings'][number];

/**
 * SARIF 2.1.0 from the judged JSON report, for github/codeql-action/upload-sarif.
 * Rule ids are our public rule ids; each result carries the finding's stable
 * fingerprint, so code scanning tracks an alert across runs. Suppressed findings
 * (the configuration's `suppress:`) are results too, with an accepted external
 * suppression whose justification is the entry's reason: code scanning shows
 * them closed, not open. Deterministic.
 */
export function renderSarif(report: Report, options: SarifOptions = {}): string {
  const maxResults = options.maxResults ?? SARIF_MAX_RESULTS;
  const { kept, omitted } = mostSevere(report.findings, maxResults);
  // Suppressed findings fill the room the judged ones leave (the report lists up to 1,000 of them).
  const listed: readonly Suppressed[] = report.suppressed?.findings ?? [];
  const quiet = mostSevere(listed, maxResults - kept.length);
  const quietKept = quiet.kept as readonly Suppressed[];
  const ruleIds = new Set(report.rules.map((rule) => rule.id));
  const rules = [...report.rules, ...suppressedRules(report, ruleIds)].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const index = new Map(rules.map((rule, i) => [rule.id, i]));
  const notes: string[] = [];
  if (omitted > 0) notes.push(`${kept.length} of ${report.findings.length} findings are in this file, the most severe first (code scanning keeps ${maxResults} results per run); all of them are in report.json`);
  const suppressedCount = report.suppressed?.count ?? 0;
  if (suppressedCount > quietKept.length) {
    notes.push(`${quietKept.length} of ${suppressedCount} suppressed findings are in this file (as suppressed results); report.json counts them all and lists up to ${listed.length}`);
  }
  const runsNote = omittedRunsNote(report);
  if (runsNote) notes.push(runsNote);
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            semanticVersion: report.tool.version,
            informationUri: PROJECT_URL,
            rules: rules.map((rule) => ({
              id: rule.id,
              name: rule.id,
              shortDescription: { text: rule.summary },
              fullDescription: { text: rule.summary },
              help: { text: `Likely cause: ${rule.likelyCause}\nNext action: ${rule.nextAction}` },
              helpUri: ruleDocsUrl(rule.id),
              defaultConfiguration: { level: LEVEL[rule.severity] },
            })),
          },
        },
        ...(notes.length === 0
          ? {}
          : { invocations: [{ executionSuccessful: true, toolExecutionNotifications: notes.map((text) => ({ level: 'warning', message: { text } })) }] }),
        columnKind: 'utf16CodeUnits',
        results: [
          ...kept.map((finding) => ({ ...result(finding, index.get(finding.ruleId)), ...baselineOf(finding) })),
          ...quietKept.map((finding) => ({
            ...result(finding, index.get(finding.ruleId)),
            suppressions: [{ kind: 'external', status: 'accepted', justification: sanitizeText(finding.reason, { maxChars: JUSTIFICATION_MAX }) }],
          })),
        ],
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/**
 * A result's `baselineState`, from the finding's (the comparison's, src/report/verdict/delta.ts):
 * `new` and `unchanged` as they are; a flaky finding is `unchanged` (some base runs had it:
 * code scanning keeps its alert, not a new one) with `agentTraceAudit/baselineState: flaky`
 * and its counts in the result's properties; a finding not compared (its rule was not run at
 * this version on the base) has no `baselineState` (SARIF has no word for it) and says so in
 * its properties. A report not compared: none of these.
 */
function baselineOf(finding: Finding): Record<string, unknown> {
  const state = finding.baselineState;
  if (state === undefined) return {};
  if (state === 'new' || state === 'unchanged') return { baselineState: state };
  if (state === 'flaky') {
    const seen = finding.baselineSeen;
    return { baselineState: 'unchanged', properties: { 'agentTraceAudit/baselineState': 'flaky', ...(seen ? { 'agentTraceAudit/seenIn': seen.runs, 'agentTraceAudit/baselines': seen.of } : {}) } };
  }
  return { properties: { 'agentTraceAudit/baselineState': 'not-compared' } };
}

/**
 * The rules of suppressed findings: a suppressed finding's rule left the report's
 * `rules` (suppressReport) when none of its findings is left, and a result names
 * a rule the driver describes: its words come from our registry by id.
 */
function suppressedRules(report: Report, known: ReadonlySet<string>): Report['rules'] {
  const out: Report['rules'] = [];
  const seen = new Set(known);
  for (const finding of report.suppressed?.findings ?? []) {
    if (seen.has(finding.ruleId)) continue;
    seen.add(finding.ruleId);
    const meta = ruleById(finding.ruleId)?.meta;
    // The finding's severity is the rule's as configured (build.ts gives the rule list the same).
    const words = meta ? { summary: meta.summary, likelyCause: meta.likelyCause, nextAction: meta.nextAction } : { summary: finding.ruleId, likelyCause: '', nextAction: '' };
    out.push({ id: finding.ruleId, severity: finding.severity, ...words });
  }
  return out;
}

function result(finding: Finding, ruleIndex: number | undefined) {
  const region = finding.line > 0 ? { region: { startLine: finding.line } } : {};
  return {
    ruleId: finding.ruleId,
    ...(ruleIndex === undefined ? {} : { ruleIndex }),
    level: LEVEL[finding.severity],
    message: { text: finding.message === '' ? finding.ruleId : finding.message },
    locations: [{ physicalLocation: { artifactLocation: { uri: encodeUri(finding.file) }, ...region } }],
    partialFingerprints: { [FINGERPRINT_KEY]: finding.fingerprint },
  };
}

/** A relative path as a URI reference: each segment percent-encoded, slashes kept. */
function encodeUri(path: string): string {
  // encodeURIComponent throws on a lone surrogate (a report read back from disk may hold one): shown as U+FFFD.
  const wellFormed = path.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  return wellFormed.split('/').map(encodeURIComponent).join('/');
}
