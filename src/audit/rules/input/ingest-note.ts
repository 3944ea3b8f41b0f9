import { z } from 'zod';
import { pairRun, type Pair } from '../../facts/pairing.js';
import { defineRule } from '../rule-types.js';

/**
 * Fed by ingest: a decision a parser made that the reader should know about (e.g. pairing by order).
 * It also speaks for the pairing itself: a run whose calls and results carry no call id was paired
 * by order (each id-less result takes the earliest waiting call of its tool), which the run is told once.
 */
/** Formats whose parsers pair id-less tool spans with the model's calls themselves and note each pairing. */
const PARSERS_THAT_NOTE: ReadonlySet<string> = new Set(['otlp-json', 'jaeger-json', 'langfuse']);

export const ingestNote = defineRule({
  meta: {
    id: 'ingest-note',
    category: 'input',
    defaultSeverity: 'note',
    summary: 'A parser had to infer something the trace did not say (for example, pairing a tool span with its call by order).',
    likelyCause: 'The trace format or exporter leaves out a field (such as the tool call id).',
    nextAction: 'Record the missing field in the exporter so that nothing has to be inferred.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    if (PARSERS_THAT_NOTE.has(run.format)) return;
    const { pairs, orphans } = pairRun(run);
    let paired = 0;
    let first: Pair | null = null;
    for (const pair of pairs) {
      // A call and result built from one span (a tool span of a trace) were not paired by inference.
      if (pair.call.callId !== null || (pair.call.spanId !== null && pair.call.spanId === pair.result.spanId)) continue;
      paired += 1;
      first ??= pair;
    }
    if (first === null) return;
    const left = orphans.filter((call) => call.callId === null).length;
    const rest = left === 0 ? '' : `; ${left} id-less call${left === 1 ? '' : 's'} found no result and ${left === 1 ? 'is' : 'are'} reported as orphan-call`;
    report({
      loc: first.call.loc,
      runId: run.runId,
      key: 'paired-by-order',
      message: `${paired} call${paired === 1 ? '' : 's'} without a call id paired with ${paired === 1 ? 'its result' : 'their results'} by order (the next id-less result of the same tool)${rest}`,
    });
  },
});
