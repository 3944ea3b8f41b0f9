import { z } from 'zod';
import { resolveDigests } from '../../boundary/boundary-digests.js';
import { classifyHop, isMutationHop } from '../../boundary/mutation-hop.js';
import { defineRule } from '../rule-types.js';

export const mutationLabelMismatch = defineRule({
  meta: {
    id: 'mutation-label-mismatch',
    category: 'boundary',
    defaultSeverity: 'warning',
    summary: 'A recorded mutation_hop that differs from the hop recomputed from the hashes and lengths.',
    likelyCause: 'The label was written by hand or by an older classifier, or the hashes were recomputed without updating it.',
    nextAction: 'Compute mutation_hop in code from the three hashes and lengths when the record is written; never edit it by hand.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    for (const record of run.boundaries) {
      if (record.mutationHop === null) continue;
      const { digests } = resolveDigests(record);
      // An incomplete record cannot be checked; payload-mutation reports what is missing.
      if (digests === null) continue;
      const { hop } = classifyHop(digests);
      if (hop === record.mutationHop) continue;
      const where = record.callId === null ? 'boundary record without a call id' : `call '${record.callId}'`;
      const label = isMutationHop(record.mutationHop) ? `'${record.mutationHop}'` : `'${record.mutationHop}' (not a known hop label)`;
      report({
        loc: record.loc,
        runId: run.runId,
        callId: record.callId,
        tool: null,
        key: `${label}>${hop}`,
        message: `${where}: recorded mutation_hop ${label}, recomputed '${hop}'`,
      });
    }
  },
});
