import { mapAnyAgent } from './any-agent.js';
import { emptyFacts, type AttributeMapper, type SpanFacts } from '../facts.js';
import { mapGenAi } from './genai.js';
import { mapGoogleAdk } from './google-adk.js';
import { mapMonocle } from './monocle.js';
import { mapOpenInference } from './openinference.js';
import { mapOpenLlmetry } from './openllmetry.js';
import { attrStr, type OtelSpan } from '../span.js';
import { mapVercelAi } from './vercel-ai.js';
import { spanScenario, type SpanScenario } from '../scenario.js';

/** Every attribute convention, applied to every span of every container (first to know a field wins). */
const MAPPERS: readonly AttributeMapper[] = [mapGenAi, mapOpenInference, mapVercelAi, mapGoogleAdk, mapOpenLlmetry, mapMonocle, mapAnyAgent];

/** How a span failed: span status, `error.type`, exception events. */
export interface SpanError {
  readonly failed: boolean;
  /** `error.type`: the low-cardinality class the conventions ask for (a stable code when set). */
  readonly errorType: string | null;
  /** `exception.type` of the first exception event. */
  readonly exceptionType: string | null;
  /** `exception.message`, else the status message. */
  readonly message: string | null;
}

/** What the assembler keeps of a span: ids, times, line, mapped facts. The attribute Map is dropped. */
export interface MappedSpan extends Pick<OtelSpan, 'traceId' | 'spanId' | 'parentId' | 'name' | 'startMs' | 'endMs' | 'line'> {
  readonly facts: SpanFacts;
  readonly error: SpanError;
  /** What names the span's run across reruns (scenario.ts), when the span says; null mostly. */
  readonly scenario: SpanScenario | null;
}

export function mapSpan(span: OtelSpan): MappedSpan {
  const facts = emptyFacts();
  for (const mapper of MAPPERS) mapper(span, facts);
  if (facts.tool !== null) {
    // A tool span is never also the model request, whatever else it carries (ADK puts an empty llm_request on it).
    facts.model = false;
    facts.tool.name ??= toolNameFromSpanName(span.name);
  }
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentId: span.parentId,
    name: span.name,
    startMs: span.startMs,
    endMs: span.endMs,
    line: span.line,
    facts,
    error: spanError(span),
    scenario: spanScenario(span.attrs),
  };
}

function spanError(span: OtelSpan): SpanError {
  const errorType = attrStr(span.attrs, 'error.type');
  let exceptionType: string | null = null;
  let exceptionMessage: string | null = null;
  for (const event of span.events) {
    if (event.name !== 'exception') continue;
    exceptionType = attrStr(event.attrs, 'exception.type');
    exceptionMessage = attrStr(event.attrs, 'exception.message');
    break;
  }
  const hasException = span.events.some((event) => event.name === 'exception');
  return {
    failed: span.status === 'error' || errorType !== null || hasException,
    errorType,
    exceptionType,
    message: exceptionMessage ?? span.statusMessage,
  };
}

/** `execute_tool get_weather` → `get_weather` (the GenAI span name pattern), when no attribute names the tool. */
function toolNameFromSpanName(name: string): string | null {
  const space = name.indexOf(' ');
  if (space > 0 && name.slice(0, space) === 'execute_tool') return name.slice(space + 1).trim() || null;
  return name === '' ? null : name;
}
