import { z } from 'zod';
import type { HeldRecord } from '../../../model/run.js';
import { formatMs } from '../../facts/deadlines.js';
import { pairRun } from '../../facts/pairing.js';
import { defineRule } from '../rule-types.js';

/** Seed 001's only wall-clock budget (its search span's deadline_ms: 8000): the default gap. */
export const DEFAULT_GAP_SECONDS = 8;

export const llmStall = defineRule({
  meta: {
    id: 'llm-stall',
    category: 'pairing',
    defaultSeverity: 'warning',
    summary: 'No model output for longer than the configured gap while no tool call was outstanding: the model stream stalled.',
    likelyCause: 'The model request hung or streamed nothing (a provider stall, a lost stream), not a tool: nothing was outstanding.',
    nextAction: 'Add a stream heartbeat and a first-token timeout to the model client; do not raise tool deadlines or rewrite prompts for it.',
    options: z.strictObject({
      gapSeconds: z.number().positive().default(DEFAULT_GAP_SECONDS).describe('Seconds without model output, with no call outstanding, that make a stall.'),
    }),
  },
  check(run, ctx, report) {
    // Conversation messages are stamped after the model wrote them, and the user's turns are not recorded.
    if (run.llmSpans.length === 0 || run.llmSpans.some((span) => span.message === true)) return;
    const gapMs = ctx.options.gapSeconds * 1000;
    const n = run.records.length;
    // opens[i] / closes[i]: calls that become outstanding at record i, and that its result answers.
    const opens = new Int32Array(n);
    const closes = new Int32Array(n);
    const { pairs, orphanPositions } = pairRun(run);
    for (const { callAt, resultAt } of pairs) {
      opens[callAt]! += 1;
      closes[resultAt]! += 1;
    }
    for (const at of orphanPositions) opens[at]! += 1;

    let outstanding = 0;
    // Since when the model has owed output with nothing outstanding (epoch ms), and the record that started it.
    const owed: { since: number | null; from: HeldRecord | null } = { since: null, from: null };
    const owe = (record: HeldRecord, ts: number | null) => {
      owed.since = ts;
      owed.from = ts === null ? null : record;
    };
    for (let i = 0; i < n; i += 1) {
      const record = run.records[i]!;
      const isOutput = record.kind === 'llm' || record.kind === 'tool_call';
      const { since, from: start } = owed;
      if (isOutput && outstanding === 0 && since !== null && start !== null && record.ts !== null && record.ts - since > gapMs) {
        report({
          loc: record.loc,
          runId: run.runId,
          key: record.kind,
          message: `no model output for ${formatMs((record.ts - since) / 1000)} s (from line ${start.loc.line} to this ${record.kind === 'llm' ? 'llm span' : 'tool call'}) with no tool call outstanding (gap ${formatMs(ctx.options.gapSeconds)} s)`,
        });
      }
      outstanding += opens[i]! - closes[i]!;
      if (record.kind === 'llm') owe(record, record.endTs ?? record.ts);
      else if (record.kind === 'tool_result' && closes[i]! > 0 && outstanding === 0) owe(record, record.ts);
      // The runtime said it is waiting on a tool: the model owes nothing until the wait ends.
      else if (record.kind === 'blocked_on') owe(record, null);
      else if (record.kind === 'tool_call') owe(record, null);
    }
  },
});
