import { z } from 'zod';
import { pairRun } from '../pairing.js';
import { defineRule } from '../rule-types.js';

export const orphanCall = defineRule({
  meta: {
    id: 'orphan-call',
    category: 'pairing',
    defaultSeverity: 'error',
    summary: 'A tool call that never got a result: it looks like a hang.',
    likelyCause: 'With later llm spans: the model continued without the result. With none: the tool process blocked or crashed.',
    nextAction: 'With later llm spans: gate generation on the tool result. With none: inspect the tool runtime, not the prompt.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    const { orphans, orphanPositions } = pairRun(run);
    if (orphans.length === 0) return;
    // Record order is time order in every parser; lines are not (a whole-document
    // format puts many records on one line). lastLlm = position of the run's last llm span.
    let lastLlm = -1;
    for (let i = run.records.length - 1; i >= 0 && lastLlm === -1; i -= 1) if (run.records[i]!.kind === 'llm') lastLlm = i;
    orphans.forEach((call, k) => {
      const later = lastLlm > orphanPositions[k]!;
      const cause = later ? 'the model kept generating afterwards' : 'nothing followed it in the run';
      const id = call.callId === null ? 'without a call id' : `'${call.callId}'`;
      report({
        loc: call.loc,
        runId: run.runId,
        callId: call.callId,
        tool: call.tool,
        message: `call ${id} to '${call.tool}' has no result (${cause})`,
      });
    });
  },
});
