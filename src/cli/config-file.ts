import { lstatSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfigFile, resolveConfig, type AuditConfig, type ConfigFile, type ConfigOverrides, type FailOn } from '../config/config.js';
import type { CliIO } from './io.js';
import { namedConfinement, realFolder } from '../io/confine.js';

/**
 * The configuration file given with --config, or agent-trace-audit.yml in the
 * working folder when there is one. `defaultFailOn` is the command's own fail
 * level when neither the overrides (--fail-on) nor the file set one (replay and
 * scope: `note`, ToolReplay's exit 1 on any finding).
 */
export async function loadCliConfig(io: CliIO, configFlag: string | undefined, overrides: ConfigOverrides = {}, defaultFailOn?: FailOn): Promise<AuditConfig> {
  const configPath = configFlag ?? (lstatSync(resolve(io.cwd, DEFAULT_CONFIG_FILE), { throwIfNoEntry: false }) ? DEFAULT_CONFIG_FILE : undefined);
  let file: ConfigFile = {};
  if (configPath !== undefined) {
    const abs = resolve(io.cwd, configPath);
    // Inside the working folder the file may not lead out of it (a symlink committed to the repository); a path typed outside it is the user's choice.
    const within = { ...namedConfinement(abs, realFolder(io.cwd), io.cwd), rootName: 'the working folder' };
    file = await loadConfigFile(abs, configPath, within);
  }
  const failOn = overrides.failOn ?? file['fail-on'] ?? defaultFailOn;
  return resolveConfig(file, failOn === undefined ? overrides : { ...overrides, failOn }, configPath ?? 'configuration');
}
