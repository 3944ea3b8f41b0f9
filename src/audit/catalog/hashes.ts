import {
  canonicalSha256,
  lossless as losslessInput,
  compareCodePoints,
  compareUtf16,
  type CanonicalMode,
  type LosslessValue,
} from '../../canonical/index.js';
import type { CatalogTool } from '../../model/records.js';
import { FormsCache } from './forms-cache.js';

/** A value's SHA-256 in each canonical form; null where the form cannot represent the value. */
export interface HashForms {
  readonly jcs: string | null;
  readonly python: string | null;
}

function attempt(hash: () => string): string | null {
  try {
    return hash();
  } catch {
    return null;
  }
}

/**
 * The catalog hash over the sorted name list, in both forms. Each form sorts
 * the way its ecosystem does: JCS by UTF-16 code unit, Python (`sorted(names)`)
 * by code point. The two differ only for astral names against U+E000..U+FFFF.
 */
export function catalogHashForms(names: readonly string[]): HashForms {
  return byNames.get(names, () => ({
    jcs: attempt(() => canonicalSha256([...names].sort(compareUtf16), 'jcs')),
    python: attempt(() => canonicalSha256([...names].sort(compareCodePoints), 'python')),
  }));
}

/** The schema hash of a catalog tool in both forms (lossless when the parser kept the number lexemes). */
export function schemaHashForms(tool: CatalogTool): HashForms | null {
  const known = byTool.get(tool);
  if (known !== undefined) return known;
  const forms = toolForms(tool);
  byTool.set(tool, forms);
  return forms;
}

// Each run's rules and its report entry ask for the same tool's forms, and most files
// repeat one catalog in every run: the forms are kept per tool object and per schema value.
const byTool = new WeakMap<CatalogTool, HashForms | null>();
const bySchema = new FormsCache<HashForms>();
const byNames = new FormsCache<HashForms>();

function toolForms(tool: CatalogTool): HashForms | null {
  const lossless: LosslessValue | undefined = tool.schemaLossless;
  if (lossless !== undefined) {
    return { jcs: attempt(() => canonicalSha256(losslessInput(lossless), 'jcs')), python: attempt(() => canonicalSha256(losslessInput(lossless), 'python')) };
  }
  if (tool.schema === undefined) return null;
  const schema = tool.schema;
  return bySchema.get(schema, () => ({ jcs: attempt(() => canonicalSha256(schema, 'jcs')), python: attempt(() => canonicalSha256(schema, 'python')) }));
}

/** A recorded hash as compared: lowercase hex, without a `sha256:` prefix. */
export function normalizeHash(recorded: string): string {
  return recorded.trim().toLowerCase().replace(/^sha-?256:/, '');
}

/** Which form a recorded hash matches (case-insensitive hex), or null for neither. */
export function matchForm(recorded: string, forms: HashForms): CanonicalMode | null {
  const want = normalizeHash(recorded);
  if (forms.jcs === want) return 'jcs';
  if (forms.python === want) return 'python';
  return null;
}

/** "recomputed <h>" when both forms agree, else "recomputed JCS <h>, Python <h>". */
export function describeForms(forms: HashForms): string {
  if (forms.jcs === forms.python) return `recomputed ${forms.jcs ?? '(none: the value has no canonical form)'}`;
  return `recomputed JCS ${forms.jcs ?? '(none)'}, Python ${forms.python ?? '(none)'}`;
}
