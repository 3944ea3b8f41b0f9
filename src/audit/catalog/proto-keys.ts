/**
 * `__proto__` as a property name, for ajv. Ajv leaves `__proto__` out of a schema's
 * `properties` (so `{"__proto__": "fine"}` fails `additionalProperties: false`) and,
 * without `ownProperties`, reads inherited members (`constructor`, `__proto__`) as if
 * the arguments had them. With `ownProperties` on, the second is fixed; for the first,
 * the name `__proto__` is spelled as a stand-in in the schema's property names and in
 * the arguments, and back in the error path.
 */

const PROTO = '__proto__';
/** The stand-in: a name no tool declares (a NUL cannot be typed in most tool schemas). */
export const PROTO_STAND_IN = '\u0000__proto__';

/** Keywords whose object keys are property names. */
const NAME_KEYED = new Set(['properties', 'dependentRequired', 'dependentSchemas', 'dependencies']);
/** Keywords whose array values are property names. */
const NAME_LISTS = new Set(['required']);
const MAX_DEPTH = 64;

/** Own-property copy of `value` with the data key `__proto__` renamed (defineProperty keeps it data). */
function define(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** True when `value` holds an own `__proto__` key at some depth (nothing is copied otherwise). */
function hasProtoKey(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => hasProtoKey(item, depth + 1));
  if (Object.prototype.hasOwnProperty.call(value, PROTO)) return true;
  return Object.values(value).some((item) => hasProtoKey(item, depth + 1));
}

/** The schema with `__proto__` as a property name (in `properties`, `required` …) spelled as the stand-in. */
export function protoSafeSchema(schema: unknown): unknown {
  return JSON.stringify(schema)?.includes('"__proto__"') ? renameInSchema(schema, false, 0) : schema;
}

function renameInSchema(value: unknown, namesHere: boolean, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => (namesHere && item === PROTO ? PROTO_STAND_IN : renameInSchema(item, false, depth + 1)));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = namesHere && key === PROTO ? PROTO_STAND_IN : key;
    // Under a name-keyed keyword, each value is a schema (or a list of names for the dependency keywords).
    const below = namesHere ? renameInSchema(item, Array.isArray(item), depth + 1) : renameInSchema(item, NAME_KEYED.has(key) || NAME_LISTS.has(key), depth + 1);
    define(out, name, below);
  }
  return out;
}

/** The arguments with every own `__proto__` key spelled as the stand-in (the same value when there is none). */
export function protoSafeData(value: unknown): unknown {
  return hasProtoKey(value) ? renameKeys(value, 0) : value;
}

function renameKeys(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) define(out, key === PROTO ? PROTO_STAND_IN : key, renameKeys(item, depth + 1));
  return out;
}

/** An ajv path or message with the stand-in spelled `__proto__` again. */
export function protoRestored(text: string): string {
  return text.split(PROTO_STAND_IN).join(PROTO);
}
