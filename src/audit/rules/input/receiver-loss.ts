import { z } from 'zod';
import { defineRule } from '../rule-types.js';

/** Fed by the OTLP receiver (`run`, `mode: listen`): requests it refused, spans it rejected, connections it dropped. */
export const receiverLoss = defineRule({
  meta: {
    id: 'receiver-loss',
    category: 'input',
    defaultSeverity: 'warning',
    summary: 'The OTLP receiver did not keep everything exporters sent it (refused requests, rejected spans or dropped connections), so the audit saw only part of the runs.',
    likelyCause: 'An exporter sent requests over the receiver\'s caps (body size, spans per request, spool size), spans without valid ids, or more connections at once than the receiver holds.',
    nextAction: 'Read the receiver\'s warnings in the log for each refusal; send smaller batches (BatchSpanProcessor maxExportBatchSize), raise --max-request-mb / --max-spool-mb, or fix the exporter.',
    options: z.strictObject({}),
  },
});
