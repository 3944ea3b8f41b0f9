import type { CatalogTool, SourceLocation } from '../../model/records.js';
import { losslessSchemas } from './lossless-schemas.js';
import type { LosslessValue } from '../../canonical/index.js';
import { idOf, int, isObject, num, own, str, strList, type JsonObject } from '../facts/fields.js';
import { bad, baseFields, errorCodeOf, ok, resultIsError, type DialectResult } from './common.js';

export const EVENT_TYPES = new Set(['catalog', 'tool_call', 'tool_result', 'catalog_unused', 'llm']);

/**
 * Typed events: `{"type": "catalog" | "tool_call" | "tool_result" | "catalog_unused", ...}`
 * with `tool_call_id`, `name`, `arguments`, `args_sha256`, `catalog_names`,
 * `catalog_sha256`, `schema_sha256`, `exit_code`, `output_head`, `flags`.
 */
export function parseTypedEvent(obj: JsonObject, loc: SourceLocation, text?: string): DialectResult {
  // dialectOf sends `{"kind": "catalog"}` (span logs' spelling) here too.
  const type = str(obj, 'kind') === 'catalog' ? 'catalog' : str(obj, 'type');
  const base = baseFields(obj, loc);
  switch (type) {
    case 'catalog':
      return parseCatalog(obj, base, text);
    case 'catalog_unused': {
      const unused = own(obj, 'unused_names');
      if (unused !== undefined && strList(unused) === null) return bad('catalog_unused "unused_names" is not a list of strings');
      return ok();
    }
    case 'llm':
      return ok({ kind: 'llm', ...base, endTs: null });
    case 'tool_call': {
      const name = str(obj, 'name') ?? str(obj, 'tool');
      if (name === null) return bad('tool_call event without a string "name"');
      return ok({
        kind: 'tool_call',
        ...base,
        callId: idOf(obj, 'tool_call_id') ?? idOf(obj, 'call_id'),
        tool: name,
        args: own(obj, 'arguments') ?? own(obj, 'args'),
        argsHash: str(obj, 'args_sha256') ?? str(obj, 'args_hash'),
        deadlineMs: num(obj, 'deadline_ms'),
        index: null,
        schemaSha256: str(obj, 'schema_sha256'),
      });
    }
    default: {
      const exitCode = int(obj, 'exit_code');
      const httpStatus = int(obj, 'http_status');
      return ok({
        kind: 'tool_result',
        ...base,
        callId: idOf(obj, 'tool_call_id') ?? idOf(obj, 'call_id'),
        tool: str(obj, 'name') ?? str(obj, 'tool'),
        content: own(obj, 'output') ?? own(obj, 'result') ?? own(obj, 'content') ?? own(obj, 'output_head') ?? own(obj, 'error'),
        isError: resultIsError(obj, httpStatus, exitCode),
        errorClass: str(obj, 'error_class'),
        errorCode: errorCodeOf(obj),
        httpStatus,
        exitCode,
        index: null,
      });
    }
  }
}

function parseCatalog(obj: JsonObject, base: ReturnType<typeof baseFields>, text: string | undefined): DialectResult {
  const rawNames = own(obj, 'catalog_names');
  const names = rawNames === undefined ? [] : strList(rawNames);
  if (names === null) return bad('catalog "catalog_names" is not a list of strings');
  const schemaHashes = own(obj, 'schema_sha256');
  if (schemaHashes !== undefined && schemaHashes !== null && !isObject(schemaHashes)) {
    return bad('catalog "schema_sha256" is not an object of tool name to hash');
  }
  const schemas = collectSchemas(obj);
  if (typeof schemas === 'string') return bad(schemas);
  const lossless = schemas.size > 0 && text !== undefined ? losslessSchemas(text) : new Map<string, LosslessValue>();
  const all = new Map<string, CatalogTool>();
  const hashOf = (name: string) => (isObject(schemaHashes) ? str(schemaHashes, name) : null);
  const schemaOf = (name: string) => ({
    ...(schemas.has(name) ? { schema: schemas.get(name) } : {}),
    ...(lossless.has(name) ? { schemaLossless: lossless.get(name)! } : {}),
  });
  for (const name of names) all.set(name, { name, schemaSha256: hashOf(name), ...schemaOf(name) });
  for (const name of schemas.keys()) if (!all.has(name)) all.set(name, { name, schemaSha256: hashOf(name), ...schemaOf(name) });
  return ok({
    kind: 'catalog',
    ...base,
    tools: [...all.values()],
    names: rawNames === undefined ? [...all.keys()] : names,
    recordedSha256: str(obj, 'catalog_sha256'),
  });
}

/** Full schemas when the event carries them: `schemas: {name: schema}` or `tools: [{name, parameters|input_schema|inputSchema}]`. */
function collectSchemas(obj: JsonObject): Map<string, unknown> | string {
  const out = new Map<string, unknown>();
  const schemas = own(obj, 'schemas');
  if (schemas !== undefined) {
    if (!isObject(schemas)) return 'catalog "schemas" is not an object of tool name to JSON Schema';
    for (const name of Object.keys(schemas)) out.set(name, schemas[name]);
  }
  const tools = own(obj, 'tools');
  if (tools !== undefined) {
    if (!Array.isArray(tools)) return 'catalog "tools" is not a list';
    for (const tool of tools) {
      if (!isObject(tool) || str(tool, 'name') === null) return 'catalog "tools" entry without a string "name"';
      out.set(str(tool, 'name')!, own(tool, 'parameters') ?? own(tool, 'input_schema') ?? own(tool, 'inputSchema') ?? own(tool, 'schema'));
    }
  }
  return out;
}
