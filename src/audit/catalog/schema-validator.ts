import type { Ajv, ValidateFunction } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { canonicalize } from '../../canonical/index.js';
import { protoRestored, protoSafeData, protoSafeSchema } from './proto-keys.js';

/** A compiled tool schema, or why it did not compile. */
export type CompiledSchema = { readonly ok: true; readonly validate: ValidateFunction } | { readonly ok: false; readonly reason: string };

/** The first failure of a validation: where in the arguments and which keyword. */
export interface ArgumentFailure {
  readonly path: string;
  readonly keyword: string;
  readonly message: string;
}

// Tool schemas are data from traces: no strict-mode complaints about unknown keywords,
// formats not enforced (no format plugin), and `$id`s never registered globally. Only own
// properties count: `constructor` or `__proto__` of the arguments is never an inherited member.
const OPTIONS = { strict: false, allErrors: false, validateFormats: false, addUsedSchema: false, logger: false, ownProperties: true } as const;

/**
 * Compiles tool schemas once per canonical form: draft 2020-12 and 2019-09
 * when `$schema` says so, draft-07 otherwise (other `$schema` URIs are read as draft-07).
 */
export class SchemaValidators {
  // Each ajv instance is made when the first schema of its draft arrives: most audits
  // have no tool schemas, and an instance costs its meta-schemas in time and memory.
  // ajv itself is loaded then too, not at every start. Rules are synchronous, so it is
  // `require`d: the bundler's (ncc keeps ajv in the one file and evaluates it here) or vitest's.
  #draft07: Ajv | null = null;
  #draft2019: Ajv2019 | null = null;
  #draft2020: Ajv2020 | null = null;
  private readonly cache = new Map<string, CompiledSchema>();
  /** The same, by schema object: a run's calls to one tool share its schema, canonicalized once. */
  private readonly bySchema = new WeakMap<object, CompiledSchema>();

  private get draft07(): Ajv {
    return (this.#draft07 ??= new (require('ajv') as typeof import('ajv')).Ajv(OPTIONS));
  }

  private get draft2019(): Ajv2019 {
    return (this.#draft2019 ??= new (require('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js')).Ajv2019(OPTIONS));
  }

  private get draft2020(): Ajv2020 {
    return (this.#draft2020 ??= new (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(OPTIONS));
  }

  /** The compiled schema and whether this call compiled it (so a failure is reported once). */
  compile(schema: unknown): { compiled: CompiledSchema; fresh: boolean } {
    const object = typeof schema === 'object' && schema !== null ? schema : null;
    const known = object === null ? undefined : this.bySchema.get(object);
    if (known) return { compiled: known, fresh: false };
    const key = keyOf(schema);
    let compiled = this.cache.get(key);
    const fresh = compiled === undefined;
    if (compiled === undefined) this.cache.set(key, (compiled = this.compileNew(schema)));
    if (object !== null) this.bySchema.set(object, compiled);
    return { compiled, fresh };
  }

  private compileNew(given: unknown): CompiledSchema {
    const schema = protoSafeSchema(given);
    if (typeof schema !== 'boolean' && (schema === null || typeof schema !== 'object' || Array.isArray(schema))) {
      return { ok: false, reason: 'a schema must be an object or a boolean' };
    }
    try {
      const dialect = typeof schema === 'object' ? (schema as Record<string, unknown>)['$schema'] : undefined;
      const uri = typeof dialect === 'string' ? dialect : '';
      if (/2020-12/.test(uri)) return { ok: true, validate: this.draft2020.compile(schema) };
      if (/2019-09/.test(uri)) return { ok: true, validate: this.draft2019.compile(schema) };
      // Any other `$schema` (draft-04/06, https spellings of draft-07) is dropped: ajv knows only its own meta-schema URIs.
      const plain = typeof schema === 'object' && uri !== '' ? withoutDialect(schema as Record<string, unknown>) : schema;
      return { ok: true, validate: this.draft07.compile(lowercaseTypes(plain) as object | boolean) };
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message.split('\n')[0]! : 'unknown error' };
    }
  }
}

/** The first failure of `args` against a compiled schema, or null when they pass. */
export function firstFailure(validate: ValidateFunction, args: unknown): ArgumentFailure | null {
  if (validate(protoSafeData(args))) return null;
  const error = validate.errors?.[0];
  if (!error) return { path: '', keyword: 'unknown', message: 'fails the schema' };
  return { path: protoRestored(error.instancePath), keyword: error.keyword, message: protoRestored(error.message ?? 'fails the schema') };
}

function keyOf(schema: unknown): string {
  try {
    return canonicalize(schema, 'jcs');
  } catch {
    return `raw:${JSON.stringify(schema)}`;
  }
}

const OPENAPI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

/**
 * Gemini and Google ADK declare tools in the OpenAPI subset with upper-case type
 * names (`"type": "STRING"`); JSON Schema spells them in lower case. Only `type`
 * values of that exact set are changed, everywhere in the schema.
 */
export function lowercaseTypes(schema: unknown, depth = 0): unknown {
  if (depth > 64 || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((item) => lowercaseTypes(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string' && OPENAPI_TYPES.has(value)) out[key] = value.toLowerCase();
    else if (key === 'type' && Array.isArray(value)) out[key] = value.map((t) => (typeof t === 'string' && OPENAPI_TYPES.has(t) ? t.toLowerCase() : t));
    else Object.defineProperty(out, key, { value: lowercaseTypes(value, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  // fromEntries defines own properties, so a `__proto__` key stays data.
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'));
}
