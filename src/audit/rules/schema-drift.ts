import { z } from 'zod';
import { normalizeHash, schemaHashForms } from '../catalog/hashes.js';
import { checkCatalog, schemaIdentities } from '../catalog/run-catalog.js';
import { defineRule } from '../rule-types.js';

/** One schema seen for a tool name: the hashes that identify it and where it was first seen. */
interface Variant {
  readonly ids: ReadonlySet<string>;
  readonly shown: string;
  readonly where: string;
}

export const schemaDrift = defineRule({
  meta: {
    id: 'schema-drift',
    category: 'catalog',
    defaultSeverity: 'warning',
    summary: 'The same tool name with another schema hash in another run (or catalog) of the audit.',
    likelyCause: 'The tool definition changed between runs (a field added, a type changed) while its name stayed: runs are no longer comparable.',
    nextAction: 'Diff the two schemas before comparing the runs; version the tool name or pin the schema when the change was not intended.',
    options: z.strictObject({}),
  },
  /** Tool name → schemas seen so far, across every run of the audit. */
  init: () => new Map<string, Variant[]>(),
  check(run, ctx, report) {
    for (const record of run.catalogs) {
      for (const tool of checkCatalog(record).tools.values()) {
        const forms = schemaHashForms(tool);
        const ids = schemaIdentities(tool, forms);
        if (ids.size === 0) continue;
        const shown = (tool.schemaSha256 ? normalizeHash(tool.schemaSha256) : null) ?? forms?.jcs ?? forms?.python ?? '?';
        const variants = ctx.state.get(tool.name) ?? [];
        if (variants.some((variant) => [...ids].some((id) => variant.ids.has(id)))) continue;
        const first = variants[0];
        if (first) {
          report({
            loc: record.loc,
            runId: run.runId,
            tool: tool.name,
            key: `${tool.name}:${shown}`,
            message: `tool '${tool.name}' has schema hash ${shown} here but ${first.shown} at ${first.where}: the definition changed under the same name`,
          });
        }
        variants.push({ ids, shown, where: `${record.loc.file}:${record.loc.line}` });
        ctx.state.set(tool.name, variants);
      }
    }
  },
});
