import { describeIssues } from '../../zod-issues.js';
import { reportSchema, type Report } from '../../report/schema.js';
import { sanitizeText } from '../../sanitize/text.js';
import type { Finding } from '../../model/finding.js';

/** A stored report larger than this is refused (a real one with 100,000 findings is ~40 MB). */
export const MAX_STORED_REPORT_BYTES = 64 * 1024 * 1024;
export const REPORT_FILE = 'agent-trace-audit-report.json';

/**
 * A JSON report that came from elsewhere (another job, a fork's run, a
 * committed baseline): untrusted. It must parse, match the report schema
 * exactly, and every string a renderer shows passes the sanitizer again.
 * Only its data is used; nothing stored is ever posted as markdown.
 */
export function parseStoredReport(text: string, source: string): Report {
  if (text.length > MAX_STORED_REPORT_BYTES) throw new Error(`${source}: report is over the ${MAX_STORED_REPORT_BYTES}-byte cap`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${source}: not valid JSON`);
  }
  const parsed = reportSchema.safeParse(data);
  if (!parsed.success) throw new Error(`${source}: not an agent-trace-audit report: ${describeIssues(parsed.error)}`);
  return sanitizeStoredReport(parsed.data);
}

const clean = (s: string) => sanitizeText(s, { maxChars: 300 });
const cleanOrNull = (s: string | null) => (s === null ? null : clean(s));

function cleanFinding(f: Finding): Finding {
  return { ...f, ruleId: clean(f.ruleId), message: clean(f.message), file: clean(f.file), runId: cleanOrNull(f.runId), callId: cleanOrNull(f.callId), tool: cleanOrNull(f.tool) };
}

/**
 * A schema-checked report from elsewhere with every string a renderer shows passed through
 * the sanitizer again (secrets, control characters, markdown, length): the one path for the
 * Action's stored reports and the CLI's `merge` and `--baseline` inputs.
 */
export function sanitizeStoredReport(report: Report): Report {
  return {
    ...report,
    files: report.files.map((f) => ({ ...f, path: clean(f.path), format: clean(f.format), ...(f.notTrace === undefined ? {} : { notTrace: clean(f.notTrace) }) })),
    runs: report.runs.map((r) => ({ ...r, file: clean(r.file), runId: cleanOrNull(r.runId), format: clean(r.format), catalogSha256: cleanOrNull(r.catalogSha256) })),
    ...(report.catalogs
      ? { catalogs: report.catalogs.map((c) => ({ sha256: cleanOrNull(c.sha256), tools: c.tools.map((t) => ({ name: clean(t.name), schemaSha256: cleanOrNull(t.schemaSha256) })) })) }
      : {}),
    rules: report.rules.map((r) => ({ ...r, id: clean(r.id), summary: clean(r.summary), likelyCause: clean(r.likelyCause), nextAction: clean(r.nextAction) })),
    ...(report.rulesRun ? { rulesRun: report.rulesRun.map((r) => ({ ...r, id: clean(r.id) })) } : {}),
    findings: report.findings.map(cleanFinding),
    ...(report.verdict ? { verdict: { ...report.verdict, headline: clean(report.verdict.headline) } } : {}),
    ...(report.comparison
      ? {
          comparison: {
            ...report.comparison,
            baselines: report.comparison.baselines.map((b) => ({ ...b, source: clean(b.source), version: clean(b.version), time: cleanOrNull(b.time) })),
            fixed: report.comparison.fixed.map(cleanFinding),
          },
        }
      : {}),
    ...(report.artifacts ? { artifacts: report.artifacts.map((a) => ({ ...a, name: clean(a.name), digest: clean(a.digest) })) } : {}),
  };
}
