import { sha256Hex } from '../../canonical/index.js';
import type { Finding, Severity } from '../../model/finding.js';
import { sanitizeText } from '../../sanitize/text.js';
import { Memo } from '../held/memo.js';
import type { FindingDraft } from '../rules/rule-types.js';
import { normaliseMessage } from './identity-path.js';

/**
 * Turns a rule's draft into a Finding: severity from the configuration, all
 * trace text sanitized, and the fingerprint its file's identity gave it
 * (run-identity.ts); a finding of no file's (a cross-run rule's, made when every
 * file is read) is identified by its rule, tool and content key.
 */
export function makeFinding(ruleId: string, severity: Severity, draft: FindingDraft): Finding {
  const file = cleanFile(draft.loc.file);
  const runId = nullable(draft.runId);
  const callId = nullable(draft.callId);
  const tool = nullable(draft.tool);
  return {
    ruleId,
    severity,
    message: sanitizeText(draft.message, { maxChars: 400 }),
    file,
    line: draft.loc.line,
    runId,
    callId,
    tool,
    fingerprint: draft.fingerprint ?? fingerprint([ruleId, draft.place ?? null, null, null, draft.tool ?? null, draft.key ?? normaliseMessage(draft.message)]),
  };
}

function nullable(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : cleanId(value);
}

/**
 * File names, run ids, call ids and tool names repeat from finding to finding: each is
 * sanitized once (a bounded memo; sanitizeText is a pure function). A long one is not
 * worth keeping.
 */
function sanitizedOnce(maxChars: number): (text: string) => string {
  const options = { maxChars };
  const memo = new Memo(4096, (text: string) => sanitizeText(text, options));
  return (text) => (text.length > 256 ? sanitizeText(text, options) : memo.get(text));
}
const cleanFile = sanitizedOnce(300);
const cleanId = sanitizedOnce(120);

export function fingerprint(parts: readonly unknown[]): string {
  return sha256Hex(JSON.stringify(parts)).slice(0, 16);
}

/** Findings in report order: file, line, rule id, then the rest, compared by code unit (locale-free). */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    cmp(a.file, b.file) ||
    a.line - b.line ||
    cmp(a.ruleId, b.ruleId) ||
    cmp(a.runId ?? '', b.runId ?? '') ||
    cmp(a.callId ?? '', b.callId ?? '') ||
    cmp(a.message, b.message) ||
    cmp(a.fingerprint, b.fingerprint)
  );
}

/** Places in report order: file, then line. */
export function compareLocations(a: { file: string; line: number }, b: { file: string; line: number }): number {
  return cmp(a.file, b.file) || a.line - b.line;
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
