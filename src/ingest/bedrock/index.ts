import { cassetteFormat } from '../cassette/format.js';

/**
 * VCR cassettes (vcrpy or go-vcr) of Amazon Bedrock: Agents `InvokeAgent` (its AWS
 * event stream of `trace` and `chunk` events: action group, knowledge base, agent
 * collaborator and code interpreter invocations with their observations; see
 * src/ingest/cassette/bedrock-agents.ts) and the Converse API (`toolUse` /
 * `toolResult` content blocks, `toolConfig.tools`; ConverseStream assembled from its
 * events, src/ingest/cassette/bedrock-stream.ts), and Amazon Nova's InvokeModel (whose
 * body is Converse's). Detected by the request address (`bedrock-agent-runtime…/agents/`,
 * `bedrock-runtime…/model/…/converse[-stream]`, `bedrock-runtime…/model/amazon.nova…`).
 */
export const bedrockFormat = cassetteFormat(
  'bedrock',
  'Amazon Bedrock VCR cassettes: Agents InvokeAgent traces (action groups, knowledge bases, collaborators) and Converse (toolUse / toolResult)',
  'bedrock',
);
