import { resolve } from 'node:path';
import { loadScopeFile } from '../../audit/engine/scope.js';
import { namedConfinement, realFolder } from '../../io/confine.js';
import { UsageError } from '../../errors.js';
import { oneOf, type CommandSpec, type ParsedArgs } from '../command.js';
import { loadCliConfig } from '../config-file.js';
import { CONFIG_FLAG, failOnOverride, formatFlag, TRANSCRIPT_FAIL_ON_FLAG } from '../flags.js';
import { writeJson, type CliIO } from '../io.js';
import { auditTranscript, renderTranscriptText } from './transcript.js';

export const SCOPE: CommandSpec = {
  name: 'scope',
  summary: "check every call of a replay transcript against the agent's declared scope ({agent, allowed_tools})",
  args: '<transcript.jsonl> <scope.json>',
  details: [
    'Tool names are matched exactly and case-sensitively; permission-overreach is an error by default.',
    'As ToolReplay, any finding exits 1: the fail level is note unless --fail-on or fail-on of the configuration says otherwise.',
    'Exit codes: 0 no finding at or above the fail level, 1 findings at or above it, 2 usage, input or scope file error.',
  ],
  flags: [formatFlag(['text', 'json'], 'text'), TRANSCRIPT_FAIL_ON_FLAG, CONFIG_FLAG],
  examples: ['agent-trace-audit scope session.jsonl scope.json'],
  run: scopeCommand,
};

/** `scope`: checks every call of a transcript against a declared scope. */
async function scopeCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.positionals.length !== 2) throw new UsageError('scope takes a transcript and a scope file');
  const [transcript, scopePath] = args.positionals as [string, string];
  const format = oneOf('format', args.string('format'), ['text', 'json'] as const) ?? 'text';
  const scopeAbs = resolve(io.cwd, scopePath);
  const scope = loadScopeFile(scopeAbs, scopePath, { ...namedConfinement(scopeAbs, realFolder(io.cwd), io.cwd), rootName: 'the working folder' });
  const config = await loadCliConfig(io, args.string('config'), failOnOverride(args), 'note');
  const audit = await auditTranscript(io, transcript, config, ['permission-overreach'], new Map([['permission-overreach', { scope }]]));
  if (format === 'json') {
    const { file, calls, findings } = audit;
    writeJson(io, `${JSON.stringify({ command: 'scope', file, agent: scope.agent, calls, findings }, null, 2)}\n`);
  } else {
    io.stdout(renderTranscriptText(audit));
  }
  return audit.failed ? 1 : 0;
}
