import { FAIL_LEVELS, type FailOn } from '../config/config.js';
import type { FlagSpec, ParsedArgs } from './command.js';
import { oneOf } from './command.js';

/** Flags that mean the same in every command that takes them. */
export const CONFIG_FLAG: FlagSpec = {
  name: 'config',
  short: 'c',
  type: 'string',
  value: 'file',
  default: 'agent-trace-audit.yml when the working folder has one',
  description: 'configuration file: rule severities and options, fail-on, exclude',
};

export const FAIL_ON_FLAG: FlagSpec = {
  name: 'fail-on',
  type: 'string',
  value: FAIL_LEVELS.join('|'),
  default: 'error, or fail-on of the configuration file',
  description: 'exit 1 when a finding is at or above this severity',
};

export const FAIL_ON_UNREAD_FLAG: FlagSpec = {
  name: 'fail-on-unread',
  type: 'boolean',
  default: 'off, or fail-on-unread of the configuration file',
  description: 'exit 1 when a trace file was not read (no record came out of it); without it the verdict only leads with those files',
};

/** replay and scope: any finding fails, as ToolReplay's exit 1 does. */
export const TRANSCRIPT_FAIL_ON_FLAG: FlagSpec = { ...FAIL_ON_FLAG, default: 'note (any finding), or fail-on of the configuration file' };

export function outputFlag(what: string, fallback = 'stdout'): FlagSpec {
  return { name: 'output', short: 'o', type: 'string', value: 'file', default: fallback, description: `write ${what} to this file` };
}

export function formatFlag(formats: readonly string[], fallback: string): FlagSpec {
  return { name: 'format', short: 'f', type: 'string', value: formats.join('|'), default: fallback, description: 'output format' };
}

/** --fail-on-unread, as a configuration override (absent: the configuration file's). */
export function failOnUnreadOverride(args: ParsedArgs): { failOnUnread?: true } {
  return args.boolean('fail-on-unread') ? { failOnUnread: true } : {};
}

/** The --fail-on level asked for, as a configuration override. */
export function failOnOverride(args: ParsedArgs): { failOn?: FailOn } {
  const failOn = oneOf('fail-on', args.string('fail-on'), FAIL_LEVELS);
  return failOn ? { failOn } : {};
}
