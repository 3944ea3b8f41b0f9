import * as core from '@actions/core';
import { FAIL_LEVELS, type FailOn, type Gate } from '../config/config.js';
import { ConfigurationError } from '../errors.js';
import { ANNOTATIONS_PER_LEVEL, DEFAULT_MAX_ANNOTATIONS } from './annotations.js';
import { readArtifactInputs, type ArtifactInputs } from './artifacts/artifact-inputs.js';
import { readCheckRunInputs, type CheckRunInputs } from './check-run-inputs.js';

export const MODES = ['audit', 'merge', 'publish', 'listen'] as const;
export type Mode = (typeof MODES)[number];
export const COMMENT_MODES = ['always', 'on-findings', 'changes', 'off'] as const;
export type CommentMode = (typeof COMMENT_MODES)[number];

export type BaselineInput = { kind: 'auto' } | { kind: 'artifact' } | { kind: 'file'; path: string } | { kind: 'off' };

/** Every input of action.yml, parsed and checked (the `artifacts*` ones in artifact-inputs.ts); nothing else reads INPUT_*. */
export interface ActionInputs extends ArtifactInputs, CheckRunInputs {
  readonly traces: readonly string[];
  readonly config: string;
  readonly failOn: FailOn | undefined;
  /** undefined: the configuration's gate, else new. */
  readonly gate: Gate | undefined;
  /** undefined: the default (on for pull_request events). */
  readonly comment: boolean | undefined;
  readonly commentMode: CommentMode;
  readonly summary: boolean;
  readonly annotations: boolean;
  /** Findings annotated per level (0 to 10). */
  readonly maxAnnotations: number;
  readonly seal: boolean;
  /** Redact secrets before sealing; undefined: the configuration's seal-redact, else true. */
  readonly sealRedact: boolean | undefined;
  readonly upload: boolean;
  readonly artifactName: string;
  readonly retentionDays: number | undefined;
  readonly baseline: BaselineInput;
  /** baseline artifact: how many of the last completed runs on the base branch are compared with (1 to MAX_BASELINE_RUNS). */
  readonly baselineRuns: number;
  readonly shard: string;
  /** Tells two workflows (or two suites) on one pull request apart: in the comment marker, check-run name, summary heading and artifact name. */
  readonly name: string;
  readonly mode: Mode;
  readonly sarifFile: string;
  readonly failOnEmpty: boolean;
  /** undefined: the configuration's fail-on-unread, else false. */
  readonly failOnUnread: boolean | undefined;
  /** Read every trace file as this format ('': detected per file); checked against the configuration's formats when it is loaded. */
  readonly inputFormat: string;
  /** mode: listen: the receiver's port on 127.0.0.1 (checked when listening). */
  readonly listenPort: string;
  readonly token: string;
}

export type InputReader = (name: string) => string;

export const actionsInputReader: InputReader = (name) => core.getInput(name);

export function readInputs(read: InputReader = actionsInputReader): ActionInputs {
  const text = (name: string) => read(name).trim();
  const traces = read('traces')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const failOn = text('fail-on');
  if (failOn !== '' && !(FAIL_LEVELS as readonly string[]).includes(failOn)) throw invalid('fail-on', failOn, FAIL_LEVELS);
  const retention = text('retention-days');
  if (retention !== '' && !/^\d+$/.test(retention)) throw new ConfigurationError(`input retention-days must be a whole number of days, not ${JSON.stringify(retention)}`, 'input');
  const fromArtifacts = readArtifactInputs(read);
  return {
    traces: traces.length > 0 ? traces : fromArtifacts.artifacts.length > 0 ? [] : ['**/*.jsonl'],
    config: text('config'),
    failOn: failOn === '' ? undefined : (failOn as FailOn),
    gate: text('gate') === '' ? undefined : oneOf(read, 'gate', ['new', 'all'] as const, 'new'),
    comment: optionalBoolean(read, 'comment'),
    commentMode: oneOf(read, 'comment-mode', COMMENT_MODES, 'always'),
    summary: optionalBoolean(read, 'summary') ?? true,
    annotations: optionalBoolean(read, 'annotations') ?? true,
    maxAnnotations: maxAnnotations(text('max-annotations')),
    seal: optionalBoolean(read, 'seal') ?? true,
    sealRedact: optionalBoolean(read, 'seal-redact'),
    upload: optionalBoolean(read, 'upload') ?? true,
    artifactName: text('artifact-name') || 'agent-trace-audit',
    retentionDays: retention === '' ? undefined : Number(retention),
    baseline: parseBaseline(text('baseline')),
    baselineRuns: baselineRuns(text('baseline-runs')),
    shard: text('shard'),
    name: text('name'),
    mode: oneOf(read, 'mode', MODES, 'audit'),
    sarifFile: text('sarif-file'),
    failOnEmpty: optionalBoolean(read, 'fail-on-empty') ?? true,
    failOnUnread: optionalBoolean(read, 'fail-on-unread'),
    inputFormat: text('input-format'),
    listenPort: text('listen-port') || '4318',
    token: text('github-token'),
    ...fromArtifacts,
    ...readCheckRunInputs(read),
  };
}

export function parseBaseline(value: string): BaselineInput {
  if (value === '' || value === 'auto') return { kind: 'auto' };
  if (value === 'artifact' || value === 'off') return { kind: value };
  if (value.startsWith('file:') && value.length > 5) return { kind: 'file', path: value.slice(5) };
  throw new ConfigurationError(`input baseline must be auto, artifact, off or file:<path>, not ${JSON.stringify(value)}`, 'input');
}

/** The most base-branch runs compared with (each one's report artifact is downloaded). */
export const MAX_BASELINE_RUNS = 20;
export const DEFAULT_BASELINE_RUNS = 5;

function baselineRuns(value: string): number {
  if (value === '') return DEFAULT_BASELINE_RUNS;
  if (/^\d{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_BASELINE_RUNS) return Number(value);
  throw new ConfigurationError(`input baseline-runs must be a whole number from 1 to ${MAX_BASELINE_RUNS}, not ${JSON.stringify(value)}`, 'input');
}

function maxAnnotations(value: string): number {
  if (value === '') return DEFAULT_MAX_ANNOTATIONS;
  if (/^\d{1,2}$/.test(value) && Number(value) <= ANNOTATIONS_PER_LEVEL) return Number(value);
  throw new ConfigurationError(`input max-annotations must be a whole number from 0 to ${ANNOTATIONS_PER_LEVEL} (GitHub shows ${ANNOTATIONS_PER_LEVEL} per level per step), not ${JSON.stringify(value)}`, 'input');
}

function optionalBoolean(read: InputReader, name: string): boolean | undefined {
  const value = read(name).trim().toLowerCase();
  if (value === '') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ConfigurationError(`input ${name} must be true or false, not ${JSON.stringify(value)}`, 'input');
}

function oneOf<T extends string>(read: InputReader, name: string, allowed: readonly T[], fallback: T): T {
  const value = read(name).trim();
  if (value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw invalid(name, value, allowed);
}

function invalid(name: string, value: string, allowed: readonly string[]): ConfigurationError {
  return new ConfigurationError(`input ${name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}`, 'input');
}
