import { z } from 'zod';
import { CANONICAL_MODES, canonicalSha256, lossless, parseLossless, type LosslessValue } from '../../../canonical/index.js';
import type { BoundaryRecord } from '../../../model/records.js';
import { normalizeHash } from '../../catalog/hashes.js';
import { resolveDigests } from '../../boundary/boundary-digests.js';
import { classifyHop, type MutationHop } from '../../boundary/mutation-hop.js';
import { defineRule } from '../rule-types.js';

const WHAT: Record<Exclude<MutationHop, 'no_payload_mutation'>, string> = {
  adapter_shrink: 'the adapter removed bytes from the tool output',
  adapter_grow: 'the adapter added bytes to the tool output',
  prompt_builder_wrap: 'the prompt builder wrapped the adapter output',
  prompt_builder_drop: 'the prompt builder dropped part of the adapter output',
  hash_slice_mismatch: 'equal hashes over different lengths: the hashes cover other bytes than the lengths',
  needs_manual_review: 'the bytes changed but the length did not',
};

const short = (hex: string) => hex.slice(0, 12);

export const payloadMutation = defineRule({
  meta: {
    id: 'payload-mutation',
    category: 'boundary',
    defaultSeverity: 'warning',
    summary: 'A hop between the tool process, the adapter and the model message changed the tool result.',
    likelyCause: 'The adapter parsed, wrapped or redacted the output, or the prompt builder wrapped or cut the fragment it copied.',
    nextAction: 'Hand the record to the owner the finding names; compare the saved bytes of the two boundaries around the hop.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    for (const record of run.boundaries) {
      const where = record.callId === null ? 'boundary record without a call id' : `call '${record.callId}'`;
      const base = { loc: record.loc, runId: run.runId, callId: record.callId, tool: null };
      const { digests, missing, disagreements } = resolveDigests(record);
      for (const d of disagreements) {
        report({
          ...base,
          key: `payload:${d.field}`,
          message: `${where}: recorded ${d.field} ${short(d.recorded)} disagrees with the saved payload (${short(d.computed)}); hand to observability code`,
        });
      }
      if (digests === null) {
        report({ ...base, key: 'incomplete', message: `${where}: needs_manual_review: the hop cannot be computed without ${missing.join(', ')}; hand to observability code` });
        continue;
      }
      const { hop, owner } = classifyHop(digests);
      const canonical = canonicalAdapter(record);
      if (canonical.disagreement) {
        report({ ...base, key: 'payload:adapter_canonical_sha256', message: `${where}: ${canonical.disagreement}; hand to observability code` });
      }
      if (hop === 'no_payload_mutation') continue;
      const lens = `${digests.processLen} → ${digests.adapterLen} → ${digests.modelLen} bytes`;
      const same = canonical.sameValue && digests.processSha256 !== digests.adapterSha256 ? `; its canonical hash equals the process output's: only the serialization changed (key order, whitespace)` : '';
      report({ ...base, key: hop, message: `${where}: ${hop}: ${WHAT[hop]} (${lens})${same}; hand to ${owner}` });
    }
  },
});

/**
 * The recorded canonical adapter hash (adapter_canonical_sha256), seed 003's second
 * adapter field: checked against the saved adapter payload's canonical JSON (either
 * form), and compared with the process payload's canonical hash, which tells a
 * re-serialization (same JSON value) from a change of content.
 */
function canonicalAdapter(record: BoundaryRecord): { disagreement: string | null; sameValue: boolean } {
  const recorded = record.adapterCanonicalSha256 ? normalizeHash(record.adapterCanonicalSha256) : null;
  if (recorded === null) return { disagreement: null, sameValue: false };
  const adapter = canonicalHashes(record.payloads.adapter);
  const disagreement =
    adapter !== null && !adapter.includes(recorded) ? `recorded adapter_canonical_sha256 ${short(recorded)} disagrees with the saved adapter payload's canonical JSON (${short(adapter[0]!)})` : null;
  const process = canonicalHashes(record.payloads.process);
  return { disagreement, sameValue: process !== null && process.includes(recorded) };
}

/** SHA-256 of a payload's canonical JSON in each form (JCS, Python); null when it is absent or not JSON. */
function canonicalHashes(payload: string | undefined): string[] | null {
  if (payload === undefined) return null;
  let value: LosslessValue;
  try {
    value = parseLossless(payload);
  } catch {
    return null;
  }
  const out: string[] = [];
  for (const mode of CANONICAL_MODES) {
    try {
      out.push(canonicalSha256(lossless(value), mode));
    } catch {
      // no form in this mode
    }
  }
  return out.length === 0 ? null : out;
}
