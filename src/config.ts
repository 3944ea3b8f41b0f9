import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { RULES, ruleById } from './audit/rules/index.js';
import { ConfigurationError } from './errors.js';
import { DEFAULT_LIMITS, type ReadLimits } from './io/limits.js';
import { SEVERITIES, type Severity } from './model/finding.js';

export const FAIL_LEVELS = ['error', 'warning', 'note', 'never'] as const;
export type FailOn = (typeof FAIL_LEVELS)[number];
export const DEFAULT_CONFIG_FILE = 'agent-trace-audit.yml';

const ruleLevel = z.enum([...SEVERITIES, 'off']);

/** The configuration file, as users write it (kebab-case keys). */
export const configFileSchema = z.strictObject({
  'fail-on': z.enum(FAIL_LEVELS).optional(),
  include: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
  rules: z.record(z.string(), z.union([ruleLevel, z.looseObject({ severity: ruleLevel.optional() })])).optional(),
  limits: z
    .strictObject({
      'max-line-bytes': z.number().int().positive().optional(),
      'max-inflated-bytes': z.number().int().positive().optional(),
      'max-depth': z.number().int().positive().max(100_000).optional(),
      'max-document-bytes': z.number().int().positive().optional(),
      'run-idle-records': z.number().int().nonnegative().optional(),
    })
    .optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

export interface RuleSetting {
  readonly severity: Severity | 'off';
  readonly options: unknown;
}

/** Everything the core needs to run an audit; built only through `resolveConfig`. */
export interface AuditConfig {
  readonly failOn: FailOn;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly rules: ReadonlyMap<string, RuleSetting>;
  readonly limits: ReadLimits;
}

/** Options given on the command line or as Action inputs; they win over the file. */
export interface ConfigOverrides {
  readonly failOn?: FailOn;
}

export function resolveConfig(file: ConfigFile = {}, overrides: ConfigOverrides = {}, source = 'configuration'): AuditConfig {
  const rules = new Map<string, RuleSetting>();
  const given = file.rules ?? {};
  for (const id of Object.keys(given)) {
    if (!ruleById(id)) throw new ConfigurationError(`${source}: rules.${id}: unknown rule id ${JSON.stringify(id)}`);
  }
  for (const rule of RULES) {
    const entry = Object.prototype.hasOwnProperty.call(given, rule.meta.id) ? given[rule.meta.id] : undefined;
    const { severity, ...rawOptions } = typeof entry === 'object' && entry !== null ? entry : { severity: entry };
    const parsed = rule.meta.options.safeParse(rawOptions);
    if (!parsed.success) {
      throw new ConfigurationError(`${source}: rules.${rule.meta.id}: ${describeIssues(parsed.error)}`);
    }
    rules.set(rule.meta.id, { severity: severity ?? rule.meta.defaultSeverity, options: parsed.data });
  }
  const limits = file.limits ?? {};
  return {
    failOn: overrides.failOn ?? file['fail-on'] ?? 'error',
    include: file.include ?? [],
    exclude: file.exclude ?? [],
    rules,
    limits: {
      maxLineBytes: limits['max-line-bytes'] ?? DEFAULT_LIMITS.maxLineBytes,
      maxInflatedBytes: limits['max-inflated-bytes'] ?? DEFAULT_LIMITS.maxInflatedBytes,
      maxDepth: limits['max-depth'] ?? DEFAULT_LIMITS.maxDepth,
      maxDocumentBytes: limits['max-document-bytes'] ?? DEFAULT_LIMITS.maxDocumentBytes,
      runIdleRecords: limits['run-idle-records'] ?? DEFAULT_LIMITS.runIdleRecords,
    },
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
  let data: unknown;
  try {
    data = parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 }) ?? {};
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : 'invalid YAML';
    throw new ConfigurationError(`${shown}: not valid YAML: ${message}`);
  }
  const parsed = configFileSchema.safeParse(data);
  if (!parsed.success) throw new ConfigurationError(`${shown}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** One line naming each problem with its path: `rules.retry-storm.threshold: expected number`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return `${path === '' ? '(top level)' : path}: ${issue.message}`;
    })
    .join('; ');
}
