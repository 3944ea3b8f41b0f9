import { isLosslessObject, parseLossless, type LosslessObject, type LosslessValue } from '../../canonical/index.js';

const SCHEMA_KEYS = ['parameters', 'input_schema', 'inputSchema', 'schema'];

function member(obj: LosslessObject, key: string): LosslessValue | undefined {
  return obj.entries.find(([k]) => k === key)?.[1];
}

/**
 * The schemas of a catalog event read again from its line text with their
 * number lexemes (`1.0` stays a float, as the Python harness that hashed it saw
 * it). Mirrors collectSchemas in typed-events.ts: `schemas: {name: schema}`,
 * then `tools: [{name, parameters|input_schema|inputSchema|schema}]`.
 * Returns an empty map when the text does not parse (the plain schema is used then).
 */
export function losslessSchemas(text: string): Map<string, LosslessValue> {
  const out = new Map<string, LosslessValue>();
  let root: LosslessValue;
  try {
    root = parseLossless(text);
  } catch {
    return out;
  }
  if (!isLosslessObject(root)) return out;
  const schemas = member(root, 'schemas');
  if (schemas !== undefined && isLosslessObject(schemas)) for (const [name, schema] of schemas.entries) out.set(name, schema);
  const tools = member(root, 'tools');
  if (Array.isArray(tools)) {
    for (const tool of tools) {
      if (tool === null || !isLosslessObject(tool)) continue;
      const name = member(tool, 'name');
      if (typeof name !== 'string') continue;
      const schema = SCHEMA_KEYS.map((key) => member(tool, key)).find((value) => value !== undefined && value !== null);
      if (schema === undefined) out.delete(name);
      else out.set(name, schema);
    }
  }
  return out;
}
