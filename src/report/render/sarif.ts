import type { Finding, Severity } from '../../model/finding.js';
import { mostSevere } from '../most-severe.js';
import { PROJECT_URL, ruleDocsUrl } from './rule-docs.js';
import { omittedRunsNote } from '../run-cap.js';
import type { Report } from '../schema.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
/** partialFingerprints key: versioned so a change of fingerprint scheme never matches old alerts. */
export const FINGERPRINT_KEY = 'agentTraceAudit/v1';

const LEVEL: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = { error: 'error', warning: 'warning', note: 'note' };

/**
 * Results per run that code scanning keeps: it stores 5,000 and rejects an upload of
 * more than 25,000. A report with more findings gets its 5,000 most severe (errors,
 * then warnings, then notes; report order within a level), and says so in the log.
 */
export const SARIF_MAX_RESULTS = 5000;

/**
 * SARIF 2.1.0 from the JSON report, for github/codeql-action/upload-sarif.
 * Rule ids are our public rule ids; each result carries the finding's stable
 * fingerprint, so code scanning tracks an alert across runs. Deterministic.
 */
export function renderSarif(report: Report, maxResults = SARIF_MAX_RESULTS): string {
  const { kept, omitted } = mostSevere(report.findings, maxResults);
  const rules = [...report.rules].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const index = new Map(rules.map((rule, i) => [rule.id, i]));
  const notes: string[] = [];
  if (omitted > 0) notes.push(`${kept.length} of ${report.findings.length} findings are in this file, the most severe first (code scanning keeps ${maxResults} results per run); all of them are in report.json`);
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
        results: kept.map((finding) => result(finding, index.get(finding.ruleId))),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
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
