import type { Rule } from '../rule-types.js';
import { budgetMiss } from './budget-miss.js';
import { byteOrderMark } from './byte-order-mark.js';
import { catalogHashMismatch } from './catalog-hash-mismatch.js';
import { catalogMismatch } from './catalog-mismatch.js';
import { catalogMissing } from './catalog-missing.js';
import { continuedWhileOutstanding } from './continued-while-outstanding.js';
import { duplicateCallId } from './duplicate-call-id.js';
import { ingestNote } from './ingest-note.js';
import { internalDetailLeak } from './internal-detail-leak.js';
import { invalidArguments } from './invalid-arguments.js';
import { lateResult } from './late-result.js';
import { llmStall } from './llm-stall.js';
import { malformedRecord } from './malformed-record.js';
import { missingFinalNewline } from './missing-final-newline.js';
import { mutationLabelMismatch } from './mutation-label-mismatch.js';
import { nonDeterminism } from './non-determinism.js';
import { orphanCall } from './orphan-call.js';
import { partialRead } from './partial-read.js';
import { receiverLoss } from './receiver-loss.js';
import { payloadMutation } from './payload-mutation.js';
import { permissionOverreach } from './permission-overreach.js';
import { redactionPolicyDrift } from './redaction-policy-drift.js';
import { redundantCall } from './redundant-call.js';
import { retryStorm } from './retry-storm.js';
import { ruleCrash } from './rule-crash.js';
import { runSplit } from './run-split.js';
import { schemaDrift } from './schema-drift.js';
import { secretInTrace } from './secret-in-trace.js';
import { slowRecovery } from './slow-recovery.js';
import { stackTraceInResult } from './stack-trace-in-result.js';
import { tooManyKeys } from './too-many-keys.js';
import { truncatedTail } from './truncated-tail.js';
import { unknownFormat } from './unknown-format.js';
import { unknownTool } from './unknown-tool.js';
import { unmappedErrorShare } from './unmapped-error-share.js';
import { unmatchedResult } from './unmatched-result.js';
import { unstructuredError } from './unstructured-error.js';
import { unusedTool } from './unused-tool.js';

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
  partialRead,
  receiverLoss,
  tooManyKeys,
  // engine
  ruleCrash,
  runSplit,
  // catalog
  unknownTool,
  catalogMissing,
  catalogHashMismatch,
  catalogMismatch,
  schemaDrift,
  invalidArguments,
  unusedTool,
  // pairing
  orphanCall,
  unmatchedResult,
  duplicateCallId,
  retryStorm,
  budgetMiss,
  continuedWhileOutstanding,
  lateResult,
  llmStall,
  // replay and scope
  nonDeterminism,
  redundantCall,
  permissionOverreach,
  // error hygiene
  stackTraceInResult,
  internalDetailLeak,
  secretInTrace,
  unstructuredError,
  unmappedErrorShare,
  slowRecovery,
  // boundary hashes
  payloadMutation,
  mutationLabelMismatch,
  redactionPolicyDrift,
];

const BY_ID = new Map(RULES.map((rule) => [rule.meta.id, rule]));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ruleById(id: string): Rule<any, any> | undefined {
  return BY_ID.get(id);
}
