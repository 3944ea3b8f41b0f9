// The OTLP, Jaeger and OpenAI forms of test/ingest/big/gen-big.mjs (the memory tests'
// generator, imported, not copied) as generators of the bench's per-format rows.
import { fileURLToPath } from 'node:url';
import { FORMS, generate } from '../../test/ingest/big/gen-big.mjs';

const SOURCE = fileURLToPath(new URL('../../test/ingest/big/gen-big.mjs', import.meta.url));
// The CLI's format id of each form.
const FORMAT = { 'otlp-lines': 'otlp-json', 'otlp-document': 'otlp-json', 'jaeger-document': 'jaeger-json', 'openai-lines': 'openai', 'openai-list': 'openai', 'openai-run-state': 'openai', 'langfuse-list': 'langfuse' };

export const BIG_GENERATORS = FORMS.map((form) => {
  const lines = form.endsWith('-lines');
  return {
    id: form,
    format: FORMAT[form],
    baseline: lines ? 'lines' : 'document',
    ext: lines ? 'jsonl' : 'json',
    sources: [SOURCE],
    // gen-big counts in MB of 10^6 bytes, as the rows do.
    write: async (path, bytes) => generate(form, path, bytes / 1e6),
  };
});
