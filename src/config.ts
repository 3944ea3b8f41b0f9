import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { RULES, ruleById } from './audit/rules/index.js';
import { ConfigurationError } from './errors.js';
import { DEFAULT_FINDING_CAPS } from './audit/finding-caps.js';
import { DEFAULT_LIMITS } from './io/limits.js';
import { DEFAULT_MAX_RUNS } from './report/run-cap.js';
import { SEVERITIES } from './model/finding.js';
import { describeIssues } from './zod-issues.js';
import { FAIL_LEVELS, type AuditConfig, type FailOn, type RuleSetting } from './audit/audit-config.js';

export { describeIssues };
export { FAIL_LEVELS, type AuditConfig, type FailOn, type RuleSetting };

export const DEFAULT_CONFIG_FILE = 'agent-trace-audit.yml';

const ruleLevel = z.enum([...SEVERITIES, 'off']).meta({ id: 'rule-level', description: 'error, warning or note; off disables the rule.' });
/** A rule's `severity`, checked once per rule by resolveConfig. */
const optionalLevel = ruleLevel.optional();

/**
 * One entry per registered rule: a bare level (`retry-storm: off`) or an object
 * with `severity` and the rule's own options (strict: an unknown option is an error).
 */
function ruleEntry(rule: (typeof RULES)[number]) {
  const options = rule.meta.options instanceof z.ZodObject ? rule.meta.options : z.strictObject({});
  const object = options.extend({ severity: ruleLevel.optional() }).describe(rule.meta.summary);
  return z.union([ruleLevel, object]).optional().describe(rule.meta.summary);
}

/**
 * The configuration file, as users write it (kebab-case keys). Built on first use: a
 * run without a configuration file never needs it (it is several zod schemas per rule).
 */
export function configFileSchema(): ConfigFileSchema {
  return (fileSchema ??= buildConfigFileSchema());
}

let fileSchema: ConfigFileSchema | undefined;
type ConfigFileSchema = ReturnType<typeof buildConfigFileSchema>;

function buildConfigFileSchema() {
  const rulesSchema = z
    .strictObject(Object.fromEntries(RULES.map((rule) => [rule.meta.id, ruleEntry(rule)])))
    .describe('Per-rule severity and options, keyed by rule id.');
  return z
    .strictObject({
      'fail-on': z
        .enum(FAIL_LEVELS)
        .optional()
        .describe('Lowest severity that fails the audit (exit 1, failed check); never: report only. Default: error.'),
      include: z.array(z.string()).optional().describe('Globs of trace files to audit when no paths are given.'),
      exclude: z.array(z.string()).optional().describe('Globs of files to skip, even when a folder or glob matches them.'),
      rules: rulesSchema.optional(),
      limits: z
        .strictObject({
          'max-file-bytes': z.number().int().positive().optional().describe('Largest plain (not gzip) file read; a larger one is reported, not read (default 4 GiB).'),
          'max-line-bytes': z.number().int().positive().optional().describe('Longest line read as a record (default 16 MiB).'),
          'max-inflated-bytes': z.number().int().positive().optional().describe('Cap on the inflated size of a .gz file (default 4 GiB).'),
          'max-depth': z.number().int().positive().max(100_000).optional().describe('Deepest JSON nesting accepted in one record (default 256).'),
          'max-document-bytes': z.number().int().positive().optional().describe('Largest single-document file read whole (default 512 MiB).'),
          'max-element-bytes': z.number().int().positive().optional().describe('Largest item of a streamed one-document trace, e.g. one event or step (default 64 MiB).'),
          'run-idle-records': z
            .number()
            .int()
            .nonnegative()
            .optional()
            .describe('A run with no record for this many records of its file is audited and released (default 20000; 0: keep runs open to the end of the file).'),
          'max-run-records': z
            .number()
            .int()
            .nonnegative()
            .optional()
            .describe('A run that reaches this many records is audited in parts of at most this many, its calls awaiting a result carried into the next part (default 200000; 0: no limit).'),
          'max-findings-per-rule': z
            .number()
            .int()
            .positive()
            .optional()
            .describe('Findings one rule lists for one file; the rest are counted in one finding (default 1000).'),
          'max-findings': z.number().int().positive().optional().describe('Findings the audit lists in all; the rest are counted in one finding (default 10000).'),
          'max-runs': z.number().int().positive().optional().describe('Runs the report lists; the rest are counted, not listed (default 10000).'),
        })
        .optional()
        .describe('What one input may cost; larger inputs are reported, not read.'),
    })
    .describe('agent-trace-audit configuration (agent-trace-audit.yml at the repository root, or --config).');
}

type RuleLevel = z.infer<typeof ruleLevel>;
/** The parsed file. Rule options are typed by each rule's own schema, so here they are open. */
export type ConfigFile = Omit<z.infer<ConfigFileSchema>, 'rules'> & {
  rules?: Record<string, RuleLevel | ({ severity?: RuleLevel } & Record<string, unknown>) | undefined>;
};

/** Options given on the command line or as Action inputs; they win over the file. */
export interface ConfigOverrides {
  readonly failOn?: FailOn;
}

export function resolveConfig(file: ConfigFile = {}, overrides: ConfigOverrides = {}, source = 'configuration'): AuditConfig {
  const rules = new Map<string, RuleSetting>();
  const given: Record<string, unknown> = file.rules ?? {};
  for (const id of Object.keys(given)) {
    if (!ruleById(id)) throw new ConfigurationError(`${source}: rules.${id}: unknown rule id ${JSON.stringify(id)}`);
  }
  for (const rule of RULES) {
    const entry = Object.prototype.hasOwnProperty.call(given, rule.meta.id) ? given[rule.meta.id] : undefined;
    const { severity: rawSeverity, ...rawOptions } = (typeof entry === 'object' && entry !== null ? entry : { severity: entry }) as Record<string, unknown>;
    const severity = optionalLevel.safeParse(rawSeverity);
    if (!severity.success) {
      throw new ConfigurationError(`${source}: rules.${rule.meta.id}.severity: ${severity.error.issues[0]?.message ?? 'invalid'}`);
    }
    const parsed = rule.meta.options.safeParse(rawOptions);
    if (!parsed.success) {
      throw new ConfigurationError(`${source}: rules.${rule.meta.id}: ${describeIssues(parsed.error, rule.meta.options)}`);
    }
    rules.set(rule.meta.id, { severity: severity.data ?? rule.meta.defaultSeverity, options: parsed.data });
  }
  const limits = file.limits ?? {};
  return {
    failOn: overrides.failOn ?? file['fail-on'] ?? 'error',
    include: file.include ?? [],
    exclude: file.exclude ?? [],
    rules,
    limits: {
      maxFileBytes: limits['max-file-bytes'] ?? DEFAULT_LIMITS.maxFileBytes,
      maxLineBytes: limits['max-line-bytes'] ?? DEFAULT_LIMITS.maxLineBytes,
      maxInflatedBytes: limits['max-inflated-bytes'] ?? DEFAULT_LIMITS.maxInflatedBytes,
      maxDepth: limits['max-depth'] ?? DEFAULT_LIMITS.maxDepth,
      maxDocumentBytes: limits['max-document-bytes'] ?? DEFAULT_LIMITS.maxDocumentBytes,
      maxElementBytes: limits['max-element-bytes'] ?? DEFAULT_LIMITS.maxElementBytes,
      runIdleRecords: limits['run-idle-records'] ?? DEFAULT_LIMITS.runIdleRecords,
      maxRunRecords: limits['max-run-records'] ?? DEFAULT_LIMITS.maxRunRecords,
    },
    findingCaps: {
      perRulePerFile: limits['max-findings-per-rule'] ?? DEFAULT_FINDING_CAPS.perRulePerFile,
      perAudit: limits['max-findings'] ?? DEFAULT_FINDING_CAPS.perAudit,
    },
    maxRuns: limits['max-runs'] ?? DEFAULT_MAX_RUNS,
  };
}

/** Reads and validates a YAML (or JSON) configuration file. */
export async function loadConfigFile(path: string, shown: string = path): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigurationError(`cannot read configuration file ${JSON.stringify(shown)}${code ? ` (${code})` : ''}`);
  }
  // yaml is loaded for a configuration file only (eager: kept in the bundle, evaluated here; see scripts/build.mjs).
  const { parse: parseYaml } = await import(/* webpackMode: "eager" */ 'yaml');
  let data: unknown;
  try {
    data = parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 }) ?? {};
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : 'invalid YAML';
    throw new ConfigurationError(`${shown}: not valid YAML: ${message}`);
  }
  const schema = configFileSchema();
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ConfigurationError(`${shown}: ${describeIssues(parsed.error, schema)}`);
  return parsed.data;
}
