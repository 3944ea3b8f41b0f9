import type { Rule } from '../rule-types.js';
import { byteOrderMark } from './byte-order-mark.js';
import { ingestNote } from './ingest-note.js';
import { internalDetailLeak } from './internal-detail-leak.js';
import { malformedRecord } from './malformed-record.js';
import { missingFinalNewline } from './missing-final-newline.js';
import { orphanCall } from './orphan-call.js';
import { ruleCrash } from './rule-crash.js';
import { slowRecovery } from './slow-recovery.js';
import { stackTraceInResult } from './stack-trace-in-result.js';
import { truncatedTail } from './truncated-tail.js';
import { unknownFormat } from './unknown-format.js';
import { unmappedErrorShare } from './unmapped-error-share.js';
import { unmatchedResult } from './unmatched-result.js';
import { unstructuredError } from './unstructured-error.js';

/**
 * Every rule, one file each. Adding a rule: write `rules/<id>.ts`, its doc in
 * docs/rules/<id>.md and its test in test/audit/rules/<id>.test.ts, then add it here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const RULES: ReadonlyArray<Rule<any, any>> = [
  // input
  malformedRecord,
  truncatedTail,
  byteOrderMark,
  missingFinalNewline,
  unknownFormat,
  ingestNote,
  // engine
  ruleCrash,
  // pairing
  orphanCall,
  unmatchedResult,
  // error hygiene
  stackTraceInResult,
  internalDetailLeak,
  unstructuredError,
  unmappedErrorShare,
  slowRecovery,
];

const BY_ID = new Map(RULES.map((rule) => [rule.meta.id, rule]));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ruleById(id: string): Rule<any, any> | undefined {
  return BY_ID.get(id);
}
