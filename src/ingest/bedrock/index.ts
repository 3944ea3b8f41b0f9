import { parseCassette } from '../cassette/index.js';
import { cassetteProvider, looksLikeCassette } from '../cassette/signature.js';
import { readWhole } from '../read/read-whole.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';

/**
 * VCR cassettes (vcrpy or go-vcr) of Amazon Bedrock: Agents `InvokeAgent` (its AWS
 * event stream of `trace` and `chunk` events: action group, knowledge base, agent
 * collaborator and code interpreter invocations with their observations; see
 * src/ingest/cassette/bedrock-agents.ts) and the Converse API (`toolUse` /
 * `toolResult` content blocks, `toolConfig.tools`; ConverseStream assembled from its
 * events, src/ingest/cassette/bedrock-stream.ts). Detected by the request address
 * (`bedrock-agent-runtime…/agents/`, `bedrock-runtime…/model/…/converse[-stream]`).
 */
export const bedrockFormat: TraceFormat = {
  id: 'bedrock',
  description: 'Amazon Bedrock VCR cassettes: Agents InvokeAgent traces (action groups, knowledge bases, collaborators) and Converse (toolUse / toolResult)',
  detect(sample: DetectSample): number {
    return looksLikeCassette(sample.head) && cassetteProvider(sample.head) === 'bedrock' ? Evidence.signature : Evidence.none;
  },
  async parse(input, sink) {
    // YAML is parsed whole: within max-document-bytes, else one finding naming it.
    const bytes = await readWhole(input, sink, 'a cassette');
    if (bytes !== null) await parseCassette(bytes.toString('utf8'), input.file, sink, input.limits);
  },
};
