import { z } from 'zod';
import { RULES, ruleById } from '../audit/rules/index.js';
import { ConfigurationError } from '../errors.js';
import { parseConfigText, readConfigText } from './text.js';
import type { Confinement } from '../io/confine.js';
import { DEFAULT_FINDING_CAPS } from '../audit/findings/finding-caps.js';
import { DEFAULT_LIMITS } from '../io/limits.js';
import { DEFAULT_MAX_RUNS } from '../report/run-cap.js';
import { SEVERITIES } from '../model/finding.js';
import { describeIssues } from '../zod-issues.js';
import { formatsSection, identitySection } from '../ingest/custom/section.js';
import { FAIL_LEVELS, type AuditConfig, type FailOn, type Gate, type RuleSetting } from '../audit/engine/audit-config.js';

export { describeIssues };
export { FAIL_LEVELS, type AuditConfig, type FailOn, type Gate, type RuleSetting };

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
      gate: z
        .enum(['new', 'all'])
        .optional()
        .describe('What fails the audit: new = only findings at or above fail-on that are new against the base branch\'s report (all when there is none); all = every finding at or above fail-on. Default: new when a baseline exists.'),
      'fail-on-unread': z
        .boolean()
        .optional()
        .describe('Fail the audit when a trace file the paths matched was not read (no record came out of it: unknown format, malformed, every record skipped). Default false: the verdict leads with the files not read and the check run is neutral.'),
      suppress: z
        .array(
          z
            .strictObject({
              fingerprint: z.string().regex(/^[0-9a-f]{16}$/, 'a finding\'s fingerprint: 16 lowercase hex digits').optional().describe('The fingerprint of one finding (the JSON report\'s findings[].fingerprint).'),
              rule: z.string().optional().describe('A rule id: every finding of the rule (in the files `file` matches).'),
              file: z.string().min(1).optional().describe('A glob over the report\'s file names; with rule only.'),
              reason: z.string().trim().min(1, 'a reason is required').max(300).describe('Why the finding is accepted: listed with it.'),
            })
            .refine((e) => (e.fingerprint === undefined) !== (e.rule === undefined), { message: 'give a fingerprint, or a rule (with an optional file glob), not both' })
            .refine((e) => e.file === undefined || e.rule !== undefined, { message: 'file needs a rule', path: ['file'] }),
        )
        .optional()
        .describe('Findings accepted with a reason: they leave the verdict and are listed apart; an entry that matches nothing is a note.'),
      include: z.array(z.string()).optional().describe('Globs of trace files to audit when no paths are given.'),
      exclude: z.array(z.string()).optional().describe('Globs of files to skip, even when a folder or glob matches them.'),
      rules: rulesSchema.optional(),
      formats: formatsSection().optional(),
      identity: identitySection().optional(),
      'seal-redact': z
        .boolean()
        .optional()
        .describe('The Action: replace every secret the audit finds in a trace before sealing it into the artifact, with one receipt per value in its checkpoint (default true; the seal-redact input wins).'),
      limits: limitsSchema(),
    })
    .describe('agent-trace-audit configuration (agent-trace-audit.yml at the repository root, or --config).');
}

/** The `limits` section of the configuration file: what one input may cost. */
function limitsSchema() {
  return z
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
      'max-record-keys': z
        .number()
        .int()
        .positive()
        .optional()
        .describe('Most object keys one JSON-lines record may hold, at every level together; a record with more is one too-many-keys finding and is not read (default 10000).'),
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
    .describe('What one input may cost; larger inputs are reported, not read.');
}

type RuleLevel = z.infer<typeof ruleLevel>;
/** The parsed file. Rule options are typed by each rule's own schema, so here they are open. */
export type ConfigFile = Omit<z.infer<ConfigFileSchema>, 'rules'> & {
  rules?: Record<string, RuleLevel | ({ severity?: RuleLevel } & Record<string, unknown>) | undefined>;
};

/** Options given on the command line or as Action inputs; they win over the file. */
export interface ConfigOverrides {
  readonly failOn?: FailOn;
  readonly gate?: Gate;
  readonly failOnUnread?: boolean;
}

/** A rule's options that name a file (permission-overreach's scope) are read once here, so a problem names the file and key. */
function checkInit(rule: (typeof RULES)[number], options: unknown, source: string): void {
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    (rule.init as ((options: any) => unknown) | undefined)?.(options);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new ConfigurationError(`${source}: rules.${rule.meta.id}.${error.message}`, error.code);
  }
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
    if (severity.data !== 'off') checkInit(rule, parsed.data, source);
  }
  const limits = file.limits ?? {};
  const suppress = (file.suppress ?? []).map((entry, i) => {
    if (entry.rule !== undefined && !ruleById(entry.rule)) throw new ConfigurationError(`${source}: suppress.${i}.rule: unknown rule id ${JSON.stringify(entry.rule)}`);
    return entry;
  });
  const gate = overrides.gate ?? file.gate;
  const failOnUnread = overrides.failOnUnread ?? file['fail-on-unread'];
  return {
    failOn: overrides.failOn ?? file['fail-on'] ?? 'error',
    ...(gate ? { gate } : {}),
    ...(failOnUnread ? { failOnUnread } : {}),
    ...(suppress.length > 0 ? { suppress } : {}),
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
      maxRecordKeys: limits['max-record-keys'] ?? DEFAULT_LIMITS.maxRecordKeys,
    },
    findingCaps: {
      perRulePerFile: limits['max-findings-per-rule'] ?? DEFAULT_FINDING_CAPS.perRulePerFile,
      perAudit: limits['max-findings'] ?? DEFAULT_FINDING_CAPS.perAudit,
    },
    maxRuns: limits['max-runs'] ?? DEFAULT_MAX_RUNS,
    ...(file.formats ? { formats: Object.entries(file.formats).map(([name, mapping]) => ({ name, ...mapping })) } : {}),
    ...(file.identity ? { identity: { scenario: [file.identity.scenario].flat() } } : {}),
    ...(file['seal-redact'] === undefined ? {} : { sealRedact: file['seal-redact'] }),
  };
}

/**
 * Reads and validates a YAML (or JSON) configuration file. `within`: where it may lead
 * (the workspace; src/io/confine.ts); by default anywhere, only its type and size are checked.
 */
export async function loadConfigFile(path: string, shown: string = path, within?: Confinement): Promise<ConfigFile> {
  const text = readConfigText(path, shown, within ?? { root: null });
  const data = await parseConfigText(text, shown);
  const schema = configFileSchema();
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ConfigurationError(`${shown}: ${describeIssues(parsed.error, schema)}`);
  return parsed.data;
}
