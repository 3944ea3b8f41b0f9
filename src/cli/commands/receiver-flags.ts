import { UsageError } from '../../errors.js';
import { DEFAULT_OTLP_PORT, DEFAULT_RECEIVER_LIMITS, type ReceiverOptions } from '../../receiver/server.js';
import type { FlagSpec, ParsedArgs } from '../command.js';

const MIB = 1024 * 1024;

/** The flags `run` and `receive` share; `outDefault` is where each writes the spool when --out is not given. */
export function receiverFlags(outDefault: string): readonly FlagSpec[] {
  return [
    { name: 'port', short: 'p', type: 'string', value: 'n', default: String(DEFAULT_OTLP_PORT), description: 'port of the OTLP/HTTP receiver on 127.0.0.1 (0 picks a free one)' },
    { name: 'out', type: 'string', value: 'file', default: outDefault, description: 'write the received spans to this file, as OTLP JSON lines' },
    { name: 'max-request-mb', type: 'string', value: 'n', default: String(DEFAULT_RECEIVER_LIMITS.maxRequestBytes / MIB), description: 'refuse an export request larger than this, in MiB (1 to 1024)' },
    { name: 'max-spool-mb', type: 'string', value: 'n', default: String(DEFAULT_RECEIVER_LIMITS.maxSpoolBytes / MIB), description: 'refuse further spans once the spool reaches this size, in MiB' },
  ];
}

/** The receiver's port and limits from the flags (0 picks a free port). */
export function receiverLimits(args: ParsedArgs): Omit<ReceiverOptions, 'spoolPath' | 'onProblem'> {
  const port = whole('port', args.string('port'), DEFAULT_OTLP_PORT, 0, 65535);
  const maxRequestBytes = whole('max-request-mb', args.string('max-request-mb'), DEFAULT_RECEIVER_LIMITS.maxRequestBytes / MIB, 1, 1024) * MIB;
  const maxSpoolBytes = whole('max-spool-mb', args.string('max-spool-mb'), DEFAULT_RECEIVER_LIMITS.maxSpoolBytes / MIB, 1, 1024 * 1024) * MIB;
  return { port, maxRequestBytes, maxSpoolBytes, maxSpanBytes: Math.min(DEFAULT_RECEIVER_LIMITS.maxSpanBytes, maxRequestBytes) };
}

function whole(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < min || n > max) throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  return n;
}
