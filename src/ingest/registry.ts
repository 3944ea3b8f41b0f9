import { claudeCodeExportFormat } from './anthropic/claude-code-export.js';
import { claudeCodeFormat } from './anthropic/claude-code.js';
import { anthropicMessagesFormat } from './anthropic/index.js';
import { codexRolloutFormat } from './codex/index.js';
import { geminiApiFormat } from './gemini-api/index.js';
import { geminiCliFormat } from './gemini-cli/index.js';
import { inspectFormat } from './inspect/index.js';
import { langfuseFormat } from './langfuse/index.js';
import { mcpFormat } from './mcp/index.js';
import { boundaryDocumentFormat } from './native/boundary-document.js';
import { nativeFormat } from './native/index.js';
import { sealCheckpointFormat } from './native/seal-checkpoint.js';
import { openaiFormat } from './openai/index.js';
import { toolEventsFormat } from './tool-events/index.js';
import { googleAdkFormat } from './google-adk/index.js';
import { anyAgentFormat, jaegerFormat, otelSpansFormat, otlpFormat } from './otel/index.js';
import { atifFormat } from './atif/index.js';
import { bedrockFormat } from './bedrock/index.js';
import { openHandsFormat } from './openhands/index.js';
import { miniSweAgentFormat, sweAgentFormat } from './swe-agent/index.js';
import { lettaFormat } from './letta/index.js';
import { agentBenchFormat } from './agentbench/index.js';
import type { TraceFormat } from './types.js';

/**
 * Every trace format, in detection order: specific shapes first (OpenTelemetry
 * containers, then framework exports), the native JSONL dialects last (they are
 * the weakest evidence). Detection takes the strongest claim (src/ingest/detect.ts);
 * the order breaks ties.
 */
export const FORMATS: readonly TraceFormat[] = [
  otlpFormat,
  jaegerFormat,
  codexRolloutFormat,
  geminiCliFormat,
  claudeCodeExportFormat,
  otelSpansFormat,
  anyAgentFormat,
  openHandsFormat,
  atifFormat,
  sweAgentFormat,
  miniSweAgentFormat,
  lettaFormat,
  agentBenchFormat,
  googleAdkFormat,
  langfuseFormat,
  inspectFormat,
  mcpFormat,
  anthropicMessagesFormat,
  geminiApiFormat,
  bedrockFormat,
  openaiFormat,
  claudeCodeFormat,
  toolEventsFormat,
  boundaryDocumentFormat,
  sealCheckpointFormat,
  nativeFormat,
];

export function formatById(id: string): TraceFormat | undefined {
  return FORMATS.find((format) => format.id === id);
}
