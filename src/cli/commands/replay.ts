import { UsageError } from '../../errors.js';
import { oneOf, type CommandSpec, type ParsedArgs } from '../command.js';
import { loadCliConfig } from '../config-file.js';
import { CONFIG_FLAG, failOnOverride, formatFlag, TRANSCRIPT_FAIL_ON_FLAG } from '../flags.js';
import { writeJson, type CliIO } from '../io.js';
import { auditTranscript, renderTranscriptText } from './transcript.js';

const REPLAY_RULES = ['non-determinism', 'redundant-call'];

export const REPLAY: CommandSpec = {
  name: 'replay',
  summary: 'check a replay transcript against its own recorded responses: non-determinism and redundant calls',
  args: '<transcript.jsonl>',
  details: [
    'A transcript has one {index, tool, args, response} record per line, parsed strictly.',
    'non-determinism is a warning and redundant-call a note by default (set them in the configuration).',
    'As ToolReplay, any finding exits 1: the fail level is note unless --fail-on or fail-on of the configuration says otherwise.',
    'Exit codes: 0 no finding at or above the fail level, 1 findings at or above it, 2 usage or input error.',
  ],
  flags: [formatFlag(['text', 'json'], 'text'), TRANSCRIPT_FAIL_ON_FLAG, CONFIG_FLAG],
  examples: ['agent-trace-audit replay session.jsonl', 'agent-trace-audit replay session.jsonl --fail-on warning'],
  run: replayCommand,
};

/** `replay`: audits a transcript against its own recorded responses (non-determinism, redundant calls). */
async function replayCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  if (args.positionals.length !== 1) throw new UsageError('replay takes exactly one transcript');
  const format = oneOf('format', args.string('format'), ['text', 'json'] as const) ?? 'text';
  const config = await loadCliConfig(io, args.string('config'), failOnOverride(args), 'note');
  const audit = await auditTranscript(io, args.positionals[0]!, config, REPLAY_RULES);
  const divergence = audit.findings.find((f) => f.ruleId === 'non-determinism')?.index ?? null;
  if (format === 'json') {
    const { file, calls, findings } = audit;
    writeJson(io, `${JSON.stringify({ command: 'replay', file, calls, divergence, findings }, null, 2)}\n`);
  } else {
    io.stdout(renderTranscriptText(audit, [`divergence: ${divergence === null ? 'none' : `index ${divergence}`}`]));
  }
  return audit.failed ? 1 : 0;
}
