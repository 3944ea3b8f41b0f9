import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import type { CliIO } from './io.js';
import { nearest } from '../nearest.js';

/** One flag of a command, as its help shows it. */
export interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  /** A boolean flag takes no value. */
  readonly type: 'string' | 'boolean';
  /** A string flag that may be given more than once (read with `strings`). */
  readonly multiple?: boolean;
  /** What the value looks like in the help: `text|json`, `file`, `n`. */
  readonly value?: string;
  /** The default as the help prints it ('' for none). */
  readonly default: string;
  readonly description: string;
}

/** The words a command line was split into: flag values by long name, and the positionals. */
export interface ParsedArgs {
  readonly positionals: readonly string[];
  /** The words after the first `--` (also the last of the positionals), or null when there is none: `run`'s command line. */
  readonly afterTerminator: readonly string[] | null;
  string(name: string): string | undefined;
  /** Every value of a flag given more than once (FlagSpec.multiple), in order; [] when not given. */
  strings(name: string): readonly string[];
  boolean(name: string): boolean;
}

/**
 * A CLI command is one entry of the command table: its name, what it does,
 * its arguments and flags (with defaults) and an example, all shown by
 * `<command> --help`, and the handler that runs it.
 */
export interface CommandSpec {
  readonly name: string;
  /** One line: what the command does. */
  readonly summary: string;
  /** The positional part of the usage line, e.g. `<file|dir|glob>...`. */
  readonly args: string;
  /** Further lines of explanation shown by --help (exit codes, what is written where). */
  readonly details?: readonly string[];
  readonly flags: readonly FlagSpec[];
  readonly examples: readonly string[];
  run(args: ParsedArgs, io: CliIO): Promise<number>;
}

/** Every command takes these two. */
export const COMMON_FLAGS: readonly FlagSpec[] = [
  { name: 'debug', type: 'boolean', default: 'off', description: 'print debug messages, and the stack of an unexpected error (also ACTIONS_STEP_DEBUG=true)' },
  { name: 'help', short: 'h', type: 'boolean', default: '', description: 'show this help and exit' },
];

export function allFlags(command: CommandSpec): readonly FlagSpec[] {
  return [...command.flags, ...COMMON_FLAGS];
}

/** `usage: agent-trace-audit <name> <args> [flags]`; the flags before `--` when the arguments end in another program's command line (`run`). */
export function usageLine(command: CommandSpec): string {
  const at = command.args.indexOf('-- ');
  const [own, after] = at < 0 ? [command.args, ''] : [command.args.slice(0, at).trimEnd(), ` ${command.args.slice(at)}`];
  return `usage: agent-trace-audit ${command.name} ${own}${own ? ' ' : ''}[flags]${after}`;
}

/** `<command> --help`: what it does, every flag with its default, examples. */
export function commandHelp(command: CommandSpec): string {
  const flags = allFlags(command);
  const heads = flags.map((flag) => `${flag.short ? `-${flag.short}, ` : '    '}--${flag.name}${flag.type === 'string' ? ` <${flag.value ?? 'value'}>` : ''}`);
  const width = Math.max(...heads.map((head) => head.length));
  const lines = [`agent-trace-audit ${command.name}: ${command.summary}`, '', usageLine(command)];
  if (command.details && command.details.length > 0) lines.push('', ...command.details);
  lines.push('', 'flags:');
  flags.forEach((flag, i) => {
    const fallback = flag.default === '' ? '' : ` (default: ${flag.default})`;
    lines.push(`  ${heads[i]!.padEnd(width)}  ${flag.description}${fallback}`);
  });
  lines.push('', command.examples.length > 1 ? 'examples:' : 'example:', ...command.examples.map((example) => `  ${example}`));
  return `${lines.join('\n')}\n`;
}

/**
 * Splits a command's arguments by its flag table. An unknown flag is a usage
 * error that names the nearest known flag; a string flag without a value, or
 * a value given to a boolean flag, is one too.
 */
export function parseCommandArgs(command: CommandSpec, args: readonly string[]): ParsedArgs {
  const flags = allFlags(command);
  const options = Object.create(null) as Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;
  for (const flag of flags) options[flag.name] = { type: flag.type, ...(flag.short ? { short: flag.short } : {}), ...(flag.multiple ? { multiple: true } : {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(`${flagProblem(error, flags)}\n${usageLine(command)} (see agent-trace-audit ${command.name} --help)`);
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const terminator = parsed.tokens?.find((token) => token.kind === 'option-terminator');
  return {
    positionals: parsed.positionals,
    afterTerminator: terminator ? args.slice(terminator.index + 1) : null,
    string: (name) => {
      const value = values[name];
      return typeof value === 'string' ? value : undefined;
    },
    strings: (name) => {
      const value = values[name];
      return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    },
    boolean: (name) => values[name] === true,
  };
}

/** parseArgs's message, first line, with the nearest known flag for an unknown one. */
function flagProblem(error: unknown, flags: readonly FlagSpec[]): string {
  const message = error instanceof Error ? error.message.split('\n')[0]!.replace(/\. To specify a positional.*$/, '') : 'bad arguments';
  const unknown = /^Unknown option '(-{1,2})([^']*)'/.exec(message);
  if (!unknown) return message;
  const given = unknown[2]!.split('=')[0]!;
  const names = flags.map((flag) => flag.name);
  const guess = nearest(given, names);
  const shown = `${unknown[1]}${given}`;
  return guess === null ? `unknown flag ${shown}` : `unknown flag ${shown}: did you mean --${guess}?`;
}

/** Checks that a flag's value is one of the allowed words. */
export function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    const guess = nearest(value, allowed);
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}${guess === null ? '' : ` (did you mean ${guess}?)`}`);
  }
  return value as T;
}
