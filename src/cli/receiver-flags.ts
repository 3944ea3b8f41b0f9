import { UsageError } from '../errors.js';
import { DEFAULT_OTLP_PORT, DEFAULT_RECEIVER_LIMITS, type ReceiverOptions } from '../receiver/server.js';

/** The flags `run` and `receive` share, for parseFlags. */
export const RECEIVER_FLAGS = {
  port: { type: 'string', short: 'p' },
  out: { type: 'string' },
  'max-request-mb': { type: 'string' },
  'max-spool-mb': { type: 'string' },
} as const;

export const RECEIVER_FLAGS_USAGE = '[--port 4318] [--out file] [--max-request-mb 16] [--max-spool-mb 1024]';

type Values = { port?: string | undefined; 'max-request-mb'?: string | undefined; 'max-spool-mb'?: string | undefined };

/** The receiver's port and limits from the flags (0 picks a free port). */
export function receiverLimits(values: Values): Omit<ReceiverOptions, 'spoolPath' | 'onProblem'> {
  const port = whole('port', values.port, DEFAULT_OTLP_PORT, 0, 65535);
  const mib = 1024 * 1024;
  const maxRequestBytes = whole('max-request-mb', values['max-request-mb'], DEFAULT_RECEIVER_LIMITS.maxRequestBytes / mib, 1, 1024) * mib;
  const maxSpoolBytes = whole('max-spool-mb', values['max-spool-mb'], DEFAULT_RECEIVER_LIMITS.maxSpoolBytes / mib, 1, 1024 * 1024) * mib;
  return { port, maxRequestBytes, maxSpoolBytes, maxSpanBytes: Math.min(DEFAULT_RECEIVER_LIMITS.maxSpanBytes, maxRequestBytes) };
}

function whole(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < min || n > max) throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  return n;
}
