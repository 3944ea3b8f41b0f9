import { ConfigurationError } from '../errors.js';
import { DEFAULT_CHECK_ANNOTATIONS, MAX_CHECK_ANNOTATIONS } from '../report/render/check-annotations.js';

export const CHECK_RUN_MODES = ['auto', 'off'] as const;
export type CheckRunMode = (typeof CHECK_RUN_MODES)[number];

export interface CheckRunInputs {
  /** auto: a check run when the token may write checks, else workflow-command annotations; off: never. */
  readonly checkRun: CheckRunMode;
  /** At most this many check-run annotations (0 to MAX_CHECK_ANNOTATIONS). */
  readonly checkRunMaxAnnotations: number;
}

/** The `check-run*` inputs, checked. */
export function readCheckRunInputs(read: (name: string) => string): CheckRunInputs {
  const mode = read('check-run').trim();
  if (mode !== '' && !(CHECK_RUN_MODES as readonly string[]).includes(mode)) {
    throw new ConfigurationError(`input check-run must be one of ${CHECK_RUN_MODES.join(', ')}, not ${JSON.stringify(mode)}`, 'input');
  }
  const max = read('check-run-max-annotations').trim();
  if (max !== '' && (!/^\d{1,9}$/.test(max) || Number(max) > MAX_CHECK_ANNOTATIONS)) {
    throw new ConfigurationError(`input check-run-max-annotations must be a whole number from 0 to ${MAX_CHECK_ANNOTATIONS}, not ${JSON.stringify(max)}`, 'input');
  }
  return { checkRun: mode === '' ? 'auto' : (mode as CheckRunMode), checkRunMaxAnnotations: max === '' ? DEFAULT_CHECK_ANNOTATIONS : Number(max) };
}
