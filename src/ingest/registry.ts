import { claudeCodeFormat } from './anthropic/claude-code.js';
import { anthropicMessagesFormat } from './anthropic/index.js';
import { inspectFormat } from './inspect/index.js';
import { langfuseFormat } from './langfuse/index.js';
import { mcpFormat } from './mcp/index.js';
import { boundaryDocumentFormat } from './native/boundary-document.js';
import { nativeFormat } from './native/index.js';
import { openaiFormat } from './openai/index.js';
import { jaegerFormat, otlpFormat } from './otel/index.js';
import type { TraceFormat } from './types.js';

/**
 * Every trace format, in detection order: specific shapes first (OpenTelemetry
 * containers, then framework exports), the native JSONL dialects last (they are
 * the fallback for *.jsonl files).
 */
export const FORMATS: readonly TraceFormat[] = [
  otlpFormat,
  jaegerFormat,
  langfuseFormat,
  inspectFormat,
  mcpFormat,
  anthropicMessagesFormat,
  openaiFormat,
  claudeCodeFormat,
  boundaryDocumentFormat,
  nativeFormat,
];

export function formatById(id: string): TraceFormat | undefined {
  return FORMATS.find((format) => format.id === id);
}
