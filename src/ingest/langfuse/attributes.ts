import type { CatalogTool } from '../../model/records.js';
import { idOf, isObject, own, str, type JsonObject } from '../facts/fields.js';
import { argsOf, catalogTools } from '../facts/tool-facts.js';

/**
 * The OTel attributes Langfuse keeps in `metadata.attributes` of an
 * observation, for the keys the frameworks in its exports use: GenAI semantic
 * conventions (`gen_ai.tool.*`), the Vercel AI SDK (`ai.toolCall.*`,
 * `ai.prompt.tools`), pydantic-ai (`tool_arguments`, `tool_response`,
 * `model_request_parameters`, `pydantic_ai.all_messages`) and OpenInference
 * (`tool.name`). A small local mapping; the OTel reader has the full one.
 */
export function attributesOf(observation: JsonObject): JsonObject {
  const metadata = argsOf(own(observation, 'metadata'));
  if (!isObject(metadata)) return Object.create(null) as JsonObject;
  const attributes = argsOf(own(metadata, 'attributes'));
  return isObject(attributes) ? attributes : (Object.create(null) as JsonObject);
}

export interface ToolAttributes {
  readonly callId: string | null;
  readonly tool: string | null;
  readonly args: unknown;
  readonly result: unknown;
  readonly errorType: string | null;
}

export function toolAttributes(attrs: JsonObject): ToolAttributes {
  return {
    callId: idOf(attrs, 'gen_ai.tool.call.id') ?? idOf(attrs, 'ai.toolCall.id') ?? idOf(attrs, 'tool_call.id'),
    tool: str(attrs, 'gen_ai.tool.name') ?? str(attrs, 'ai.toolCall.name') ?? str(attrs, 'tool.name'),
    args: argsOf(own(attrs, 'gen_ai.tool.call.arguments') ?? own(attrs, 'ai.toolCall.args') ?? own(attrs, 'tool_arguments')),
    result: own(attrs, 'gen_ai.tool.call.result') ?? own(attrs, 'ai.toolCall.result') ?? own(attrs, 'tool_response'),
    errorType: str(attrs, 'error.type'),
  };
}

/** The tool catalog an observation's attributes (or Langfuse's own fields) record, null when none. */
export function catalogOf(observation: JsonObject, attrs: JsonObject): CatalogTool[] | null {
  const params = argsOf(own(attrs, 'model_request_parameters'));
  if (isObject(params)) {
    const fn = catalogTools(own(params, 'function_tools')) ?? [];
    const out = catalogTools(own(params, 'output_tools')) ?? [];
    if (fn.length + out.length > 0) return [...fn, ...out];
  }
  for (const value of [own(attrs, 'gen_ai.tool.definitions'), own(attrs, 'ai.prompt.tools'), openInferenceTools(attrs), beeAiTools(attrs)]) {
    const tools = catalogTools(value);
    if (tools && tools.length > 0) return tools;
  }
  const metadata = argsOf(own(observation, 'metadata'));
  const listed = isObject(metadata) ? catalogTools(own(metadata, 'tools')) : null;
  if (listed && listed.length > 0) return listed;
  const definitions = own(observation, 'toolDefinitions');
  const listedDefinitions = catalogTools(definitions);
  if (listedDefinitions && listedDefinitions.length > 0) return listedDefinitions;
  if (isObject(definitions)) {
    const tools = Object.keys(definitions).map((name) => ({ name, ...schemaOf(own(definitions, name)), schemaSha256: null }));
    if (tools.length > 0) return tools;
  }
  return null;
}

/** OpenInference flattens the tool list: `llm.tools.<n>.tool.json_schema`, in index order. */
function openInferenceTools(attrs: JsonObject): unknown[] {
  const found: Array<[number, unknown]> = [];
  for (const key of Object.keys(attrs)) {
    const m = /^llm\.tools\.(\d+)\.tool\.json_schema$/.exec(key);
    if (m) found.push([Number(m[1]), own(attrs, key)]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, schema]) => schema);
}

/** BeeAI's agent spans: `llm.tools`, JSON text of `[{"tool.name", "tool.description", "tool.options"}]` (no schemas). */
function beeAiTools(attrs: JsonObject): string[] {
  const list = argsOf(own(attrs, 'llm.tools'));
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => (isObject(item) && typeof own(item, 'tool.name') === 'string' ? [own(item, 'tool.name') as string] : []));
}

function schemaOf(value: unknown): { schema?: unknown } {
  const def = argsOf(value);
  if (!isObject(def)) return {};
  const schema = own(def, 'parameters') ?? own(def, 'input_schema') ?? own(def, 'inputSchema');
  return schema === undefined ? {} : { schema: argsOf(schema) };
}
