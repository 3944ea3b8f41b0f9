import { z } from 'zod';
import type { SourceLocation } from '../../../model/records.js';
import { normalizeHash, schemaHashForms } from '../../catalog/hashes.js';
import { checkCatalog, runCatalog, schemaIdentities } from '../../catalog/run-catalog.js';
import { compareLocations } from '../../findings/findings.js';
import { defineRule, type ReportFn } from '../rule-types.js';
import type { Run } from '../../../model/run.js';

/** One schema seen for a tool name: the hashes that identify it and where it was seen. */
interface Variant {
  readonly ids: readonly string[];
  readonly shown: string;
  readonly loc: SourceLocation;
  readonly runId: string | null;
}

/**
 * Tool name → each distinct schema seen for it (by its hashes and shown hash), at
 * the first place it was seen. A later copy of a schema never changes what `finish`
 * reports (it shares every hash with the earlier one), so only the first is kept:
 * the state grows with the distinct schemas, not with the runs. Plain data, so
 * worker states can be joined.
 */
type State = Map<string, Map<string, Variant>>;

export const schemaDrift = defineRule({
  meta: {
    id: 'schema-drift',
    category: 'catalog',
    defaultSeverity: 'warning',
    summary: 'The same tool name with another schema hash: in another run (or catalog) of the audit, or on a call against its run\'s catalog.',
    likelyCause: 'The tool definition changed between runs (a field added, a type changed) while its name stayed: runs are no longer comparable.',
    nextAction: 'Diff the two schemas before comparing the runs; version the tool name or pin the schema when the change was not intended.',
    options: z.strictObject({}),
  },
  init: (): State => new Map(),
  check(run, ctx, report) {
    callsAgainstCatalog(run, report);
    for (const record of run.catalogs) {
      for (const tool of checkCatalog(record).tools.values()) {
        const forms = schemaHashForms(tool);
        const ids = schemaIdentities(tool, forms);
        if (ids.size === 0) continue;
        const shown = (tool.schemaSha256 ? normalizeHash(tool.schemaSha256) : null) ?? forms?.jcs ?? forms?.python ?? '?';
        keepEarliest(ctx.state, tool.name, { ids: [...ids], shown, loc: record.loc, runId: run.runId });
      }
    }
  },
  merge(a, b) {
    const out: State = new Map([...a].map(([name, variants]) => [name, new Map(variants)]));
    for (const [name, variants] of b) for (const variant of variants.values()) keepEarliest(out, name, variant);
    return out;
  },
  /** In file and line order, each schema that shares no hash with an earlier one is a drift from the first. */
  finish(ctx, report) {
    for (const name of [...ctx.state.keys()].sort()) {
      const variants = [...ctx.state.get(name)!.values()].sort((a, b) => compareLocations(a.loc, b.loc));
      const seen: Variant[] = [];
      for (const variant of variants) {
        if (seen.some((earlier) => earlier.ids.some((id) => variant.ids.includes(id)))) continue;
        const first = seen[0];
        if (first) {
          report({
            loc: variant.loc,
            runId: variant.runId,
            tool: name,
            key: `${name}:${variant.shown}`,
            message: `tool '${name}' has schema hash ${variant.shown} here but ${first.shown} at ${first.loc.file}:${first.loc.line}: the definition changed under the same name`,
          });
        }
        seen.push(variant);
      }
    }
  },
});

/** Records `variant` of tool `name`, unless the same schema was already seen at an earlier place. */
function keepEarliest(state: State, name: string, variant: Variant): void {
  const key = `${[...variant.ids].sort().join(' ')}\u0000${variant.shown}`;
  let variants = state.get(name);
  if (!variants) state.set(name, (variants = new Map()));
  const held = variants.get(key);
  if (held && compareLocations(variant.loc, held.loc) >= 0) return;
  // Deleted first so the held variants stay in arrival order (finish's sort is stable for equal places).
  variants.delete(key);
  variants.set(key, variant);
}

/**
 * Within a run: a call that carries a schema_sha256 its run's catalog does not
 * have for that tool (seed 000: same name, another definition). Calls to tools
 * outside the catalog are unknown-tool's; a catalog entry with no hash cannot be compared.
 */
function callsAgainstCatalog(run: Run, report: ReportFn): void {
  const catalog = runCatalog(run);
  if (!catalog) return;
  const identities = new Map<string, { ids: Set<string>; shown: string } | null>();
  for (const call of run.calls) {
    if (call.schemaSha256 === undefined || call.schemaSha256 === null) continue;
    let known = identities.get(call.tool);
    if (known === undefined) {
      const tool = catalog.tools.get(call.tool);
      const forms = tool ? schemaHashForms(tool) : null;
      const ids = tool ? schemaIdentities(tool, forms) : new Set<string>();
      const shown = tool?.schemaSha256 ? normalizeHash(tool.schemaSha256) : (forms?.jcs ?? forms?.python ?? '');
      known = ids.size === 0 ? null : { ids, shown };
      identities.set(call.tool, known);
    }
    if (known === null || known.ids.has(normalizeHash(call.schemaSha256))) continue;
    const id = call.callId === null ? '' : ` '${call.callId}'`;
    report({
      loc: call.loc,
      runId: run.runId,
      callId: call.callId,
      tool: call.tool,
      message: `call${id} to '${call.tool}' carries schema hash ${normalizeHash(call.schemaSha256)}, but its run's catalog (line ${catalog.record.loc.line}) has ${known.shown}: the definition changed under the same name`,
    });
  }
}
