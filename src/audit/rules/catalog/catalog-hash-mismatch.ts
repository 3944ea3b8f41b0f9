import { z } from 'zod';
import { describeForms, matchForm, schemaHashForms } from '../../catalog/hashes.js';
import { checkCatalog } from '../../catalog/run-catalog.js';
import { defineRule } from '../rule-types.js';

export const catalogHashMismatch = defineRule({
  meta: {
    id: 'catalog-hash-mismatch',
    category: 'catalog',
    defaultSeverity: 'error',
    summary: 'A recorded catalog_sha256 or schema_sha256 that does not match the hash recomputed from the recorded names or schema.',
    likelyCause: 'The catalog was edited after it was hashed, the hash was copied from another catalog, or the harness hashes a non-canonical serialization.',
    nextAction: 'Hash the canonical JSON (sorted keys, no whitespace) of the sorted names and of each schema at run start, from the same objects the model receives.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    for (const record of run.catalogs) {
      const catalog = checkCatalog(record);
      const recorded = record.recordedSha256;
      if (recorded !== null && catalog.recordedForm === null) {
        const count = record.names.length === 1 ? '1 name' : `${record.names.length} names`;
        report({
          loc: record.loc,
          runId: run.runId,
          key: 'catalog',
          message: `recorded catalog_sha256 ${recorded} does not match the ${count} it lists (${describeForms(catalog.forms)})`,
        });
      }
      for (const tool of catalog.tools.values()) {
        if (tool.schemaSha256 === null) continue;
        const forms = schemaHashForms(tool);
        if (forms === null || matchForm(tool.schemaSha256, forms) !== null) continue;
        report({
          loc: record.loc,
          runId: run.runId,
          tool: tool.name,
          key: `schema:${tool.name}`,
          message: `recorded schema_sha256 of '${tool.name}' ${tool.schemaSha256} does not match its recorded schema (${describeForms(forms)})`,
        });
      }
    }
  },
});
