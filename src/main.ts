import * as core from '@actions/core';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_CONFIG_FILE, FAIL_LEVELS, loadConfigFile, resolveConfig, type FailOn } from './config.js';
import { auditPaths } from './core.js';
import { ConfigurationError, describeError } from './errors.js';
import type { Logger } from './logger.js';
import { renderMarkdown } from './report/markdown.js';

const actionsLogger: Logger = {
  info: (message) => core.info(message),
  warning: (message, where) => core.warning(message, where ? { file: where.file, startLine: where.line } : undefined),
  error: (message) => core.error(message),
  debug: (message) => core.debug(message),
};

/** The Action: inputs → config → core → outputs. Nothing here decides what a finding is. */
export async function run(): Promise<void> {
  const debug = core.isDebug();
  try {
    const workspace = process.env['GITHUB_WORKSPACE'] ?? process.cwd();
    const traces = core.getMultilineInput('traces').filter((line) => line.trim() !== '');
    const failOnInput = core.getInput('fail-on');
    if (failOnInput !== '' && !(FAIL_LEVELS as readonly string[]).includes(failOnInput)) {
      throw new ConfigurationError(`input fail-on must be one of ${FAIL_LEVELS.join(', ')}, not ${JSON.stringify(failOnInput)}`);
    }
    const configInput = core.getInput('config');
    const configPath = configInput !== '' ? configInput : existsSync(resolve(workspace, DEFAULT_CONFIG_FILE)) ? DEFAULT_CONFIG_FILE : undefined;
    const file = configPath ? await loadConfigFile(resolve(workspace, configPath), configPath) : {};
    const config = resolveConfig(file, { failOn: failOnInput === '' ? undefined : (failOnInput as FailOn) }, configPath ?? 'inputs');
    const outcome = await auditPaths({ paths: traces.length > 0 ? traces : ['**/*.jsonl'], root: workspace, config, strictPaths: false }, actionsLogger);
    const { summary } = outcome.report;
    core.setOutput('findings', summary.findings.error + summary.findings.warning + summary.findings.note);
    core.setOutput('errors', summary.findings.error);
    core.setOutput('warnings', summary.findings.warning);
    core.setOutput('notes', summary.findings.note);
    core.setOutput('conclusion', outcome.failed ? 'failure' : 'success');
    await core.summary.addRaw(renderMarkdown(outcome.report)).write();
    if (outcome.failed) core.setFailed(`agent-trace-audit: findings at or above '${config.failOn}'`);
  } catch (error) {
    core.setFailed(describeError(error, debug));
  }
}
