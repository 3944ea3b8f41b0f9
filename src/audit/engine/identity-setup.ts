import type { AuditConfig } from './audit-config.js';
import { selectorOf, type Selector } from '../../ingest/custom/query.js';
import { RecordQueries, selectFirst } from '../../ingest/custom/walk.js';
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
  const { maxLineBytes, maxDepth, maxRecordKeys } = config.limits;
  const limit = { key: 'maxLineBytes', bytes: maxLineBytes, maxDepth, maxKeys: maxRecordKeys } as const;
  const scenario: RecordSink['scenario'] = (note) => identity.scenario(note);
  if (queries.length === 0) return { scenario };
  return {
    scenario,
    value(value, line) {
      // The query language of formats: (steps too: `$.meta | json | $.test`), on the line as read.
      const record = new RecordQueries(value, limit);
      for (const query of queries) {
        let found: unknown;
        try {
          found = selectFirst(query, record.top, record);
        } catch {
          found = undefined; // JSON text past the line's budget: no name from this line
        }
        const name = typeof found === 'string' ? found : typeof found === 'number' || typeof found === 'boolean' ? String(found) : '';
        if (name !== '') {
          identity.lineScenario(line, name);
          return;
        }
      }
    },
  };
}
