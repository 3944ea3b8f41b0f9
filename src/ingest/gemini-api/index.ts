import { parseCassette } from '../cassette/index.js';
import { cassetteProvider, looksLikeCassette } from '../cassette/signature.js';
import { readWhole } from '../read/read-whole.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';

/**
 * VCR cassettes of the Gemini API (`generateContent` of generativelanguage.googleapis.com
 * or Vertex AI): requests carry `contents` and `tools[].functionDeclarations`, responses
 * `candidates[].content`; `functionCall` parts are calls, `functionResponse` parts results
 * (src/ingest/cassette/gemini.ts). Detected by the `:generateContent` URI, which no other
 * API's cassette has.
 */
export const geminiApiFormat: TraceFormat = {
  id: 'gemini-api',
  description: 'Gemini API VCR cassettes (generateContent: functionCall / functionResponse parts)',
  detect(sample: DetectSample): number {
    return looksLikeCassette(sample.head) && cassetteProvider(sample.head) === 'gemini' ? Evidence.signature : Evidence.none;
  },
  async parse(input, sink) {
    // YAML is parsed whole: within max-document-bytes, else one finding naming it.
    const bytes = await readWhole(input, sink, 'a cassette');
    if (bytes !== null) await parseCassette(bytes.toString('utf8'), input.file, sink, input.limits);
  },
};
