import type { CatalogRecord, CatalogTool } from '../../model/records.js';
import type { Run } from '../../model/run.js';
import { catalogHashForms, matchForm, normalizeHash, schemaHashForms, type HashForms } from './hashes.js';

/** One catalog record with its recomputed hashes: what the catalog rules share. */
export interface CheckedCatalog {
  readonly record: CatalogRecord;
  /** Tool names offered (a Set, so names like `__proto__` are plain data). */
  readonly names: ReadonlySet<string>;
  readonly tools: ReadonlyMap<string, CatalogTool>;
  /** catalog_sha256 recomputed over the sorted names in both canonical forms. */
  readonly forms: HashForms;
  /** The form the recorded hash matches; null when none is recorded or it matches neither. */
  readonly recordedForm: 'jcs' | 'python' | null;
  /**
   * The catalog's identity: the recomputed JCS hash, or the recorded hash when it
   * matches the Python form (so a Python harness's runs keep the hash it wrote).
   */
  readonly sha256: string | null;
  /** Hashes a record of this run may carry without mixing catalogs: both forms and the recorded value. */
  readonly accepted: ReadonlySet<string>;
}

const byRecord = new WeakMap<CatalogRecord, CheckedCatalog>();

export function checkCatalog(record: CatalogRecord): CheckedCatalog {
  const hit = byRecord.get(record);
  if (hit) return hit;
  const forms = catalogHashForms(record.names);
  const recorded = record.recordedSha256;
  const recordedForm = recorded === null ? null : matchForm(recorded, forms);
  const accepted = new Set<string>();
  for (const hash of [forms.jcs, forms.python, recorded === null ? null : normalizeHash(recorded)]) if (hash !== null) accepted.add(hash);
  const tools = new Map<string, CatalogTool>();
  for (const tool of record.tools) if (!tools.has(tool.name)) tools.set(tool.name, tool);
  const checked: CheckedCatalog = {
    record,
    names: new Set(record.names),
    tools,
    forms,
    recordedForm,
    sha256: recordedForm === 'python' ? normalizeHash(recorded!) : (forms.jcs ?? forms.python),
    accepted,
  };
  byRecord.set(record, checked);
  return checked;
}

/**
 * The run's catalog: its first catalog record (later ones are checked against it by
 * catalog-mismatch), or, in a later part of a run cut at `limits.max-run-records`, the
 * one its earlier part had.
 */
export function runCatalog(run: Run): CheckedCatalog | null {
  const first = run.catalogs[0] ?? run.carriedCatalog;
  return first ? checkCatalog(first) : null;
}

/** Up to `max` names quoted and comma-joined, with a count of the rest. */
export function listNames(names: Iterable<string>, max = 8): string {
  const all = [...names];
  const shown = all.slice(0, max).map((name) => `'${name}'`);
  return all.length > max ? `${shown.join(', ')} and ${all.length - max} more` : shown.join(', ');
}

/** Every hash that identifies a tool's schema: both recomputed forms when the schema is recorded, and the recorded hash. */
export function schemaIdentities(tool: CatalogTool, forms: HashForms | null): Set<string> {
  const out = new Set<string>();
  if (forms?.jcs) out.add(forms.jcs);
  if (forms?.python) out.add(forms.python);
  if (tool.schemaSha256 !== null) out.add(normalizeHash(tool.schemaSha256));
  return out;
}

/**
 * A catalog as compareCatalogs takes it: name → one schema hash. The recorded
 * hash when the recorded schema confirms it (either form), else the recomputed
 * JCS hash, else the recorded hash unchecked, else null. Two sides hashed by the
 * same harness thus compare like with like.
 */
export function catalogSnapshot(catalog: CheckedCatalog): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const name of catalog.names) {
    const tool = catalog.tools.get(name);
    const forms = tool ? schemaHashForms(tool) : null;
    const recorded = tool?.schemaSha256 ? normalizeHash(tool.schemaSha256) : null;
    const confirmed = recorded !== null && forms !== null && matchForm(recorded, forms) !== null;
    out.set(name, confirmed ? recorded : (forms?.jcs ?? forms?.python ?? recorded));
  }
  return out;
}
