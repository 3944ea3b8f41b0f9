import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE, loadConfigFile, resolveConfig, type AuditConfig, type ConfigOverrides } from '../config.js';
import type { CliIO } from './io.js';

/** The configuration file given with --config, or agent-trace-audit.yml in the working folder when there is one. */
export async function loadCliConfig(io: CliIO, configFlag: string | undefined, overrides: ConfigOverrides = {}): Promise<AuditConfig> {
  const configPath = configFlag ?? (existsSync(resolve(io.cwd, DEFAULT_CONFIG_FILE)) ? DEFAULT_CONFIG_FILE : undefined);
  const file = configPath ? await loadConfigFile(resolve(io.cwd, configPath), configPath) : {};
  return resolveConfig(file, overrides, configPath ?? 'configuration');
}
