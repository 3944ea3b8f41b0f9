import { own, str, type JsonObject } from '../facts/fields.js';
import { excerpt } from '../read/json-lines.js';
import { hasBoundaryFields, isRedactionReceipt } from './boundary.js';
import { looksLikeReplay } from './replay.js';
import { SPAN_KINDS } from './span-log.js';
import { EVENT_TYPES } from './typed-events.js';

/** Which native dialect a record belongs to, decided per record (one file may mix them). */
export function dialectOf(obj: JsonObject): 'span' | 'event' | 'replay' | 'boundary' | 'redaction' | null {
  const kind = str(obj, 'kind');
  if (kind !== null && SPAN_KINDS.has(kind)) return 'span';
  if (kind === 'catalog') return 'event';
  const type = str(obj, 'type');
  if (type !== null && EVENT_TYPES.has(type)) return 'event';
  if (looksLikeReplay(obj)) return 'replay';
  if (hasBoundaryFields(obj)) return 'boundary';
  if (isRedactionReceipt(obj)) return 'redaction';
  return null;
}

/** Why a record fits no dialect, naming the field it has when it has one (its `kind` or `type` is another's). */
export function whyNoDialect(obj: JsonObject): string {
  const kind = own(obj, 'kind');
  const type = own(obj, 'type');
  if (kind !== undefined) return `"kind" ${excerpt(JSON.stringify(kind) ?? '', 30)} is not llm, tool_call or tool_result`;
  if (type !== undefined) return `"type" ${excerpt(JSON.stringify(type) ?? '', 30)} is not catalog, tool_call, tool_result, catalog_unused or llm`;
  return 'no kind, type, index or boundary fields';
}
