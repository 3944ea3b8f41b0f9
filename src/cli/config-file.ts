import { lstatSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfigFile, resolveConfig, type AuditConfig, type ConfigOverrides } from '../config.js';
import type { CliIO } from './io.js';
import { namedConfinement, realFolder } from '../io/confine.js';

/** The configuration file given with --config, or agent-trace-audit.yml in the working folder when there is one. */
export async function loadCliConfig(io: CliIO, configFlag: string | undefined, overrides: ConfigOverrides = {}): Promise<AuditConfig> {
  const configPath = configFlag ?? (lstatSync(resolve(io.cwd, DEFAULT_CONFIG_FILE), { throwIfNoEntry: false }) ? DEFAULT_CONFIG_FILE : undefined);
  if (configPath === undefined) return resolveConfig({}, overrides, 'configuration');
  const abs = resolve(io.cwd, configPath);
  // Inside the working folder the file may not lead out of it (a symlink committed to the repository); a path typed outside it is the user's choice.
  const within = { ...namedConfinement(abs, realFolder(io.cwd), io.cwd), rootName: 'the working folder' };
  const file = await loadConfigFile(abs, configPath, within);
  return resolveConfig(file, overrides, configPath);
}
