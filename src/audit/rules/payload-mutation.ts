import { z } from 'zod';
import { resolveDigests } from '../boundary/boundary-digests.js';
import { classifyHop, type MutationHop } from '../boundary/mutation-hop.js';
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
      if (hop === 'no_payload_mutation') continue;
      const lens = `${digests.processLen} → ${digests.adapterLen} → ${digests.modelLen} bytes`;
      report({ ...base, key: hop, message: `${where}: ${hop}: ${WHAT[hop]} (${lens}); hand to ${owner}` });
    }
  },
});
