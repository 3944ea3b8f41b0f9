import { z } from 'zod';
import type { HeldCall } from '../../../model/run.js';
import { pairRun } from '../../facts/pairing.js';
import { defineRule } from '../rule-types.js';

export const continuedWhileOutstanding = defineRule({
  meta: {
    id: 'continued-while-outstanding',
    category: 'pairing',
    defaultSeverity: 'warning',
    summary: 'The model kept generating (llm spans) while a tool call was still outstanding.',
    likelyCause: 'The runtime does not gate generation on outstanding calls: the model went on without the answer.',
    nextAction: 'Gate generation on the tool result; while a call is outstanding, write a blocked_on span instead of streaming.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    if (run.llmSpans.length === 0) return;
    // Record order: llmBefore[i] = llm spans among records[0..i); nextLlm[i] = first llm position >= i.
    // Typed arrays: positions are below 2^31, and their storage is outside the collected heap.
    const n = run.records.length;
    const llmBefore = new Int32Array(n + 1);
    llmBefore[0] = 0;
    for (let i = 0; i < n; i += 1) llmBefore[i + 1] = llmBefore[i]! + (run.records[i]!.kind === 'llm' ? 1 : 0);
    const nextLlm = new Int32Array(n + 1);
    nextLlm[n] = n;
    for (let i = n - 1; i >= 0; i -= 1) nextLlm[i] = run.records[i]!.kind === 'llm' ? i : nextLlm[i + 1]!;
    // Records on the call's own line come from the same message (an assistant turn that
    // carries both text and the call): they are not "after" it. Line 0 means no line.
    const nextLine = new Int32Array(n);
    for (let i = n - 1; i >= 0; i -= 1) {
      const line = run.records[i]!.loc.line;
      nextLine[i] = i + 1 < n && line > 0 && run.records[i + 1]!.loc.line === line ? nextLine[i + 1]! : i + 1;
    }

    const { pairs, orphans, orphanPositions } = pairRun(run);
    const outstanding: Array<{ call: HeldCall; at: number; end: number; answered: boolean }> = [
      ...pairs.map(({ call, callAt, resultAt }) => ({ call, at: callAt, end: resultAt, answered: true })),
      ...orphans.map((call, k) => ({ call, at: orphanPositions[k]!, end: n, answered: false })),
    ];
    outstanding.sort((a, b) => a.at - b.at);
    for (const { call, at, end, answered } of outstanding) {
      const from = nextLine[at]!;
      const count = from < end ? llmBefore[end]! - llmBefore[from]! : 0;
      if (count <= 0) continue;
      const first = run.records[nextLlm[from]!]!;
      const id = call.callId === null ? '' : ` '${call.callId}'`;
      const until = answered ? 'before its result arrived' : 'and no result ever arrived';
      report({
        loc: call.loc,
        runId: run.runId,
        callId: call.callId,
        tool: call.tool,
        message: `the model produced ${count} llm span(s) while call${id} to '${call.tool}' was outstanding (first at line ${first.loc.line}) ${until}`,
      });
    }
  },
});
