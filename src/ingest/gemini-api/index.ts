import { cassetteFormat } from '../cassette/format.js';

/**
 * VCR cassettes of the Gemini API (`generateContent` of generativelanguage.googleapis.com
 * or Vertex AI): requests carry `contents` and `tools[].functionDeclarations`, responses
 * `candidates[].content`; `functionCall` parts are calls, `functionResponse` parts results
 * (src/ingest/cassette/gemini.ts). Detected by the `:generateContent` URI, which no other
 * API's cassette has.
 */
export const geminiApiFormat = cassetteFormat('gemini-api', 'Gemini API VCR cassettes (generateContent: functionCall / functionResponse parts)', 'gemini');
