import { ConfigurationError } from '../../errors.js';

/** Defaults of the artifact caps (documented in action.yml and docs/action.md). */
export const DEFAULT_ARTIFACTS_MAX_COUNT = 50;
export const DEFAULT_ARTIFACTS_MAX_MB = 1024;

export interface ArtifactInputs {
  /** Artifact name globs to download and audit (empty: none). */
  readonly artifacts: readonly string[];
  /** The artifacts' run: undefined for this run. */
  readonly artifactsRunId: number | undefined;
  /** `owner/repo` of the artifacts' run: '' for this repository. */
  readonly artifactsRepository: string;
  readonly artifactsAllowFork: boolean;
  readonly artifactsMaxCount: number;
  readonly artifactsMaxMb: number;
}

/** The `artifacts*` inputs, checked. */
export function readArtifactInputs(read: (name: string) => string): ArtifactInputs {
  const text = (name: string) => read(name).trim();
  const artifacts = read('artifacts')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const runId = text('artifacts-run-id');
  if (runId !== '' && !/^[1-9]\d{0,15}$/.test(runId)) throw new ConfigurationError(`input artifacts-run-id must be a workflow run id (a number), not ${JSON.stringify(runId)}`, 'input');
  const repository = text('artifacts-repository');
  if (repository !== '' && !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository)) {
    throw new ConfigurationError(`input artifacts-repository must be owner/repo, not ${JSON.stringify(repository)}`, 'input');
  }
  const allowFork = text('artifacts-allow-fork').toLowerCase();
  if (allowFork !== '' && allowFork !== 'true' && allowFork !== 'false') {
    throw new ConfigurationError(`input artifacts-allow-fork must be true or false, not ${JSON.stringify(allowFork)}`, 'input');
  }
  return {
    artifacts,
    artifactsRunId: runId === '' ? undefined : Number(runId),
    artifactsRepository: repository,
    artifactsAllowFork: allowFork === 'true',
    artifactsMaxCount: positive(text('artifacts-max-count'), 'artifacts-max-count', DEFAULT_ARTIFACTS_MAX_COUNT),
    artifactsMaxMb: positive(text('artifacts-max-mb'), 'artifacts-max-mb', DEFAULT_ARTIFACTS_MAX_MB),
  };
}

function positive(value: string, name: string, fallback: number): number {
  if (value === '') return fallback;
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new ConfigurationError(`input ${name} must be a whole number above 0, not ${JSON.stringify(value)}`, 'input');
  return Number(value);
}
