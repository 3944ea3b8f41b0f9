import {
  canonicalSha256,
  lossless as losslessInput,
  compareCodePoints,
  compareUtf16,
  type CanonicalMode,
  type LosslessValue,
} from '../../canonical/index.js';
import type { CatalogTool } from '../../model/records.js';

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
  return {
    jcs: attempt(() => canonicalSha256([...names].sort(compareUtf16), 'jcs')),
    python: attempt(() => canonicalSha256([...names].sort(compareCodePoints), 'python')),
  };
}

/** The schema hash of a catalog tool in both forms (lossless when the parser kept the number lexemes). */
export function schemaHashForms(tool: CatalogTool): HashForms | null {
  const lossless: LosslessValue | undefined = tool.schemaLossless;
  if (lossless !== undefined) {
    return { jcs: attempt(() => canonicalSha256(losslessInput(lossless), 'jcs')), python: attempt(() => canonicalSha256(losslessInput(lossless), 'python')) };
  }
  if (tool.schema === undefined) return null;
  const schema = tool.schema;
  return { jcs: attempt(() => canonicalSha256(schema, 'jcs')), python: attempt(() => canonicalSha256(schema, 'python')) };
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
