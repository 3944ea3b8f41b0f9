import type { Rule } from './rule-types.js';
import { budgetMiss } from './pairing/budget-miss.js';
import { byteOrderMark } from './input/byte-order-mark.js';
import { catalogHashMismatch } from './catalog/catalog-hash-mismatch.js';
import { catalogMismatch } from './catalog/catalog-mismatch.js';
import { catalogMissing } from './catalog/catalog-missing.js';
import { continuedWhileOutstanding } from './pairing/continued-while-outstanding.js';
import { duplicateCallId } from './pairing/duplicate-call-id.js';
import { ingestNote } from './input/ingest-note.js';
import { internalDetailLeak } from './error-hygiene/internal-detail-leak.js';
import { invalidArguments } from './catalog/invalid-arguments.js';
import { lateResult } from './pairing/late-result.js';
import { llmStall } from './pairing/llm-stall.js';
import { malformedRecord } from './input/malformed-record.js';
import { missingFinalNewline } from './input/missing-final-newline.js';
import { mutationLabelMismatch } from './boundary/mutation-label-mismatch.js';
import { nonDeterminism } from './replay/non-determinism.js';
import { orphanCall } from './pairing/orphan-call.js';
import { partialRead } from './input/partial-read.js';
import { receiverLoss } from './input/receiver-loss.js';
import { payloadMutation } from './boundary/payload-mutation.js';
import { permissionOverreach } from './replay/permission-overreach.js';
import { redactionPolicyDrift } from './boundary/redaction-policy-drift.js';
import { redundantCall } from './replay/redundant-call.js';
import { retryStorm } from './pairing/retry-storm.js';
import { ruleCrash } from './engine/rule-crash.js';
import { runSplit } from './engine/run-split.js';
import { schemaDrift } from './catalog/schema-drift.js';
import { secretInTrace } from './error-hygiene/secret-in-trace.js';
import { slowRecovery } from './error-hygiene/slow-recovery.js';
import { stackTraceInResult } from './error-hygiene/stack-trace-in-result.js';
import { tooManyKeys } from './input/too-many-keys.js';
import { truncatedTail } from './input/truncated-tail.js';
import { unknownFormat } from './input/unknown-format.js';
import { unknownTool } from './catalog/unknown-tool.js';
import { unmappedErrorShare } from './error-hygiene/unmapped-error-share.js';
import { unmatchedResult } from './pairing/unmatched-result.js';
import { unstructuredError } from './error-hygiene/unstructured-error.js';
import { unusedTool } from './catalog/unused-tool.js';

/**
 * Every rule, one file each, in the folder of its category. Adding a rule: write
 * `rules/<category>/<id>.ts`, its doc in docs/rules/<id>.md and its test in
 * test/audit/rules/<category>/<id>.test.ts, then add it here.
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
