import { resolve } from 'node:path';
import { loadScopeFile } from '../audit/scope.js';
import { UsageError } from '../errors.js';
import { oneOf, parseFlags, type CliIO } from './io.js';
import { loadCliConfig } from './config-file.js';
import { auditTranscript, renderTranscriptText } from './transcript.js';

export const SCOPE_USAGE = 'usage: agent-trace-audit scope <transcript.jsonl> <scope.json> [--format text|json] [--config file]';

/**
 * `scope`: checks every call of a transcript against a declared scope
 * ({agent, allowed_tools}). Exit 0 clean, 1 findings, 2 for an invalid scope file.
 */
export async function scopeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    { format: { type: 'string', short: 'f' }, config: { type: 'string', short: 'c' }, debug: { type: 'boolean' } },
    SCOPE_USAGE,
  );
  if (positionals.length !== 2) throw new UsageError(`scope takes a transcript and a scope file\n${SCOPE_USAGE}`);
  const [transcript, scopePath] = positionals as [string, string];
  const format = oneOf('format', values.format, ['text', 'json'] as const) ?? 'text';
  const scope = loadScopeFile(resolve(io.cwd, scopePath), scopePath);
  const config = await loadCliConfig(io, values.config);
  const audit = await auditTranscript(io, transcript, config, ['permission-overreach'], new Map([['permission-overreach', { scope }]]));
  if (format === 'json') {
    const { file, calls, findings } = audit;
    io.stdout(`${JSON.stringify({ command: 'scope', file, agent: scope.agent, calls, findings }, null, 2)}\n`);
  } else {
    io.stdout(renderTranscriptText(audit));
  }
  return audit.findings.length > 0 ? 1 : 0;
}
