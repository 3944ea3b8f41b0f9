import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfigFile, resolveConfig, type AuditConfig, type ConfigOverrides, type FailOn } from '../config.js';
import type { CliIO } from './io.js';

/**
 * The configuration file given with --config, or agent-trace-audit.yml in the
 * working folder when there is one. `defaultFailOn` is the command's own fail
 * level when neither the overrides (--fail-on) nor the file set one (replay and
 * scope: `note`, ToolReplay's exit 1 on any finding).
 */
export async function loadCliConfig(io: CliIO, configFlag: string | undefined, overrides: ConfigOverrides = {}, defaultFailOn?: FailOn): Promise<AuditConfig> {
  const configPath = configFlag ?? (existsSync(resolve(io.cwd, DEFAULT_CONFIG_FILE)) ? DEFAULT_CONFIG_FILE : undefined);
  const file = configPath ? await loadConfigFile(resolve(io.cwd, configPath), configPath) : {};
  const failOn = overrides.failOn ?? file['fail-on'] ?? defaultFailOn;
  return resolveConfig(file, failOn === undefined ? overrides : { ...overrides, failOn }, configPath ?? 'configuration');
}
