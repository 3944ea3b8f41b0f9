import { z } from 'zod';
import { InputError } from '../errors.js';
import { sanitizeText } from '../sanitize/text.js';
import { SEAL_MODES, type SealMode } from './canonical-record.js';
import { MAX_UNSEALED_LINES, type UnsealedLine } from './unsealed-lines.js';

export const CHECKPOINT_FORMAT = 'agent-trace-audit-seal';
export const CHECKPOINT_VERSION = 1;

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');

/** Where the seal was made, when it was made in GitHub Actions. Every value is checked before it is printed. */
const githubSchema = z.strictObject({
  repository: z.string().regex(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/).optional(),
  commit: z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/).optional(),
  run_id: z.string().regex(/^\d{1,20}$/).optional(),
  run_attempt: z.string().regex(/^\d{1,6}$/).optional(),
});

/**
 * What the links hold: `records`, one canonical record per line of a JSONL
 * trace; `bytes`, a whole document (JSON, .eval archive, YAML) as base64
 * chunks of its bytes. Absent means records (checkpoints written before bytes).
 */
export const SEAL_KINDS = ['records', 'bytes'] as const;
export type SealKind = (typeof SEAL_KINDS)[number];

/** Most redaction receipts one checkpoint carries (a file with more secrets is not sealed redacted). */
export const MAX_RECEIPTS = 100_000;

/**
 * One value replaced before sealing (seed 003): where it was, which detector
 * rule found it, its length in UTF-8 bytes, and the token that stands in its
 * place. Never the original characters, nor a hash of them.
 */
export const receiptSchema = z.strictObject({
  /** The archive member it was in (an Inspect .eval), when the trace is an archive. */
  entry: z.string().max(1024).optional(),
  /** The line of the file (or member) it was on, from 1. */
  line: z.number().int().min(1),
  /** The JSON path of the string that held it (`args.headers.Authorization`), or `line N` where the line is not JSON. */
  field_path: z.string().max(2048),
  rule_id: z.string().regex(/^[a-z0-9-]{1,64}$/),
  original_len: z.number().int().min(0),
  token: z.string().regex(/^\[REDACTED:[a-z0-9-]{1,64}:[1-9][0-9]{0,8}\]$/),
});
export type RedactionReceipt = z.infer<typeof receiptSchema>;

export const checkpointSchema = z.strictObject({
  format: z.literal(CHECKPOINT_FORMAT),
  version: z.literal(CHECKPOINT_VERSION),
  kind: z.enum(SEAL_KINDS).optional(),
  canonical: z.enum(SEAL_MODES),
  records: z.number().int().min(0),
  final_digest: hex64,
  sealed_sha256: hex64,
  source_sha256: hex64,
  /** Lines of a records seal left out of the chain (not records), in line order; absent when none. */
  unsealed_lines: z
    .array(z.strictObject({ line: z.number().int().min(1), reason: z.string().max(300) }))
    .min(1)
    .max(MAX_UNSEALED_LINES)
    .optional(),
  /** One receipt per value replaced before sealing (`seal --redact`, the Action's seal-redact); absent when none. */
  redactions: z.array(receiptSchema).min(1).max(MAX_RECEIPTS).optional(),
  github: githubSchema.optional(),
});

export type Checkpoint = z.infer<typeof checkpointSchema>;
export type GithubProvenance = z.infer<typeof githubSchema>;

export interface CheckpointFacts {
  /** Default: records (and no `kind` field, so record checkpoints stay as they were). */
  readonly kind?: SealKind;
  readonly mode: SealMode;
  readonly records: number;
  readonly finalDigest: string;
  readonly sealedSha256: string;
  readonly sourceSha256: string;
  /** Lines left out of a records chain (none: no `unsealed_lines` field). */
  readonly unsealed?: readonly UnsealedLine[];
  /** Values replaced before sealing (none: no `redactions` field). */
  readonly redactions?: readonly RedactionReceipt[];
}

const GITHUB_ENV: ReadonlyArray<readonly [keyof GithubProvenance, string]> = [
  ['repository', 'GITHUB_REPOSITORY'],
  ['commit', 'GITHUB_SHA'],
  ['run_id', 'GITHUB_RUN_ID'],
  ['run_attempt', 'GITHUB_RUN_ATTEMPT'],
];

/** The GitHub fields from an environment, only when it is a GitHub Actions run; malformed values are left out. */
export function githubProvenance(env: Readonly<Record<string, string | undefined>>): GithubProvenance | undefined {
  if (env['GITHUB_ACTIONS'] !== 'true') return undefined;
  const out: GithubProvenance = {};
  for (const [field, name] of GITHUB_ENV) {
    const value = env[name];
    if (value !== undefined && githubSchema.shape[field].safeParse(value).success) out[field] = value;
  }
  return out;
}

/** The checkpoint object, keys in a fixed order: identical for identical input outside GitHub Actions. */
export function buildCheckpoint(facts: CheckpointFacts, env: Readonly<Record<string, string | undefined>>): Checkpoint {
  const github = githubProvenance(env);
  return {
    format: CHECKPOINT_FORMAT,
    version: CHECKPOINT_VERSION,
    ...(facts.kind === 'bytes' ? { kind: 'bytes' as const } : {}),
    canonical: facts.mode,
    records: facts.records,
    final_digest: facts.finalDigest,
    sealed_sha256: facts.sealedSha256,
    source_sha256: facts.sourceSha256,
    ...(facts.unsealed && facts.unsealed.length > 0 ? { unsealed_lines: facts.unsealed.map(({ line, reason }) => ({ line, reason })) } : {}),
    ...(facts.redactions && facts.redactions.length > 0 ? { redactions: [...facts.redactions] } : {}),
    ...(github ? { github } : {}),
  };
}

export function formatCheckpoint(checkpoint: Checkpoint): string {
  return `${JSON.stringify(checkpoint, null, 2)}\n`;
}

/** Reads a checkpoint file's text; anything else than a valid version-1 checkpoint is an InputError (exit 2). */
export function parseCheckpoint(text: string, file: string): Checkpoint {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InputError(file, null, 'checkpoint-invalid', `${file}: the checkpoint is not JSON`);
  }
  const parsed = checkpointSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length === 0 ? 'the top level' : issue.path.map(String).join('.');
    throw new InputError(file, null, 'checkpoint-invalid', `${file}: not a seal checkpoint of version ${CHECKPOINT_VERSION}: ${sanitizeText(`${path}: ${issue.message}`)}`);
  }
  return parsed.data;
}
