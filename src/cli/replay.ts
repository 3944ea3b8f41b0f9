import { UsageError } from '../errors.js';
import { oneOf, parseFlags, type CliIO } from './io.js';
import { loadCliConfig } from './config-file.js';
import { auditTranscript, renderTranscriptText } from './transcript.js';

export const REPLAY_USAGE = 'usage: agent-trace-audit replay <transcript.jsonl> [--format text|json] [--config file]';
const REPLAY_RULES = ['non-determinism', 'redundant-call'];

/**
 * `replay`: audits a transcript against its own recorded responses
 * (non-determinism, redundant calls). Exit 0 clean, 1 findings.
 */
export async function replayCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    { format: { type: 'string', short: 'f' }, config: { type: 'string', short: 'c' }, debug: { type: 'boolean' } },
    REPLAY_USAGE,
  );
  if (positionals.length !== 1) throw new UsageError(`replay takes exactly one transcript\n${REPLAY_USAGE}`);
  const format = oneOf('format', values.format, ['text', 'json'] as const) ?? 'text';
  const config = await loadCliConfig(io, values.config);
  const audit = await auditTranscript(io, positionals[0]!, config, REPLAY_RULES);
  const divergence = audit.findings.find((f) => f.rule === 'non-determinism')?.index ?? null;
  if (format === 'json') {
    const { file, calls, findings } = audit;
    io.stdout(`${JSON.stringify({ command: 'replay', file, calls, divergence, findings }, null, 2)}\n`);
  } else {
    io.stdout(renderTranscriptText(audit, [`divergence: ${divergence === null ? 'none' : `index ${divergence}`}`]));
  }
  return audit.findings.length > 0 ? 1 : 0;
}
