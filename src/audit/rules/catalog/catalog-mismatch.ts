import { z } from 'zod';
import { normalizeHash } from '../../catalog/hashes.js';
import { checkCatalog, runCatalog } from '../../catalog/run-catalog.js';
import { defineRule } from '../rule-types.js';

export const catalogMismatch = defineRule({
  meta: {
    id: 'catalog-mismatch',
    category: 'catalog',
    defaultSeverity: 'error',
    summary: "A record that carries another catalog hash than its run's catalog: two catalogs or two files mixed in one run.",
    likelyCause: 'Several agents or runs write one file without distinct run ids, or a span was copied from another run.',
    nextAction: 'Give each agent role its own run_id and file; compare runs only after both catalog hashes match.',
    options: z.strictObject({}),
  },
  check(run, _ctx, report) {
    const catalog = runCatalog(run);
    if (!catalog) return;
    const own = catalog.sha256 ?? 'no canonical form';
    // Every catalog record after the run's own first one (all of them in a part whose catalog was carried).
    for (const record of run.catalogs[0] === catalog.record ? run.catalogs.slice(1) : run.catalogs) {
      // Catalogs recorded per model request may differ from request to request; unknown-tool checks each call against its own.
      if (record.perRequest || catalog.record.perRequest) continue;
      const other = checkCatalog(record);
      // Same names give the same recomputed forms, whichever hash each record carries.
      if (other.forms.python === catalog.forms.python) continue;
      report({
        loc: record.loc,
        runId: run.runId,
        key: `catalog:${other.sha256 ?? ''}`,
        message: `a second catalog record in the run hashes to ${other.sha256 ?? 'no canonical form'}, the run's first catalog (line ${catalog.record.loc.line}) to ${own}`,
      });
    }
    for (const record of run.records) {
      if (record.kind === 'catalog' || record.catalogSha256 === null) continue;
      if (catalog.accepted.has(normalizeHash(record.catalogSha256))) continue;
      const isCall = record.kind === 'tool_call' || record.kind === 'tool_result';
      report({
        loc: record.loc,
        runId: run.runId,
        callId: isCall ? record.callId : null,
        tool: isCall ? record.tool : null,
        key: `${record.kind}:${record.catalogSha256}`,
        message: `record carries catalog_sha256 ${record.catalogSha256}, but its run's catalog (line ${catalog.record.loc.line}) hashes to ${own}`,
      });
    }
  },
});
