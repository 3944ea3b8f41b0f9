import type { AuditConfig } from './audit-config.js';
import { selectorOf, selectFirst, type Selector } from '../../ingest/custom/query.js';
import type { RecordSink } from '../../ingest/types.js';
import { normalisePath } from '../findings/identity-path.js';
import { FileIdentity } from '../findings/run-identity.js';
import { RULES } from '../rules/index.js';

/** The rules whose findings are about a file, not a run (category `input`): identified by the file and their content. */
const FILE_RULES = new Set(RULES.filter((rule) => rule.meta.category === 'input').map((rule) => rule.meta.id));
const isFileRule = (ruleId: string) => FILE_RULES.has(ruleId);

/**
 * The identity of one file's findings (findings/run-identity.ts): its path inside
 * what was audited (`within`, the path below the folder or pattern named; else the
 * name the report shows), normalised.
 */
export function fileIdentity(config: AuditConfig, display: string, within?: string): FileIdentity {
  return new FileIdentity(normalisePath(within ?? display), isFileRule, scenarioQueries(config).length > 0);
}

/** The configuration's `identity.scenario` queries, compiled once per configuration object (per thread). */
const compiled = new WeakMap<AuditConfig, readonly Selector[]>();
function scenarioQueries(config: AuditConfig): readonly Selector[] {
  let queries = compiled.get(config);
  if (queries === undefined) compiled.set(config, (queries = (config.identity?.scenario ?? []).map(selectorOf)));
  return queries;
}

/** The sink's part that hands scenarios to `identity`: the parsers' own, and (configured) the first query that names one on a JSON line. */
export function identitySink(identity: FileIdentity, config: AuditConfig): Pick<RecordSink, 'scenario' | 'value'> {
  const queries = scenarioQueries(config);
  const scenario: RecordSink['scenario'] = (note) => identity.scenario(note);
  if (queries.length === 0) return { scenario };
  return {
    scenario,
    value(value, line) {
      for (const query of queries) {
        const found = selectFirst(query, value);
        const name = typeof found === 'string' ? found : typeof found === 'number' || typeof found === 'boolean' ? String(found) : '';
        if (name !== '') {
          identity.lineScenario(line, name);
          return;
        }
      }
    },
  };
}
