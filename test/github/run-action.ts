import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { tempDir } from '../helpers.js';

export interface ActionRun {
  readonly code: number;
  readonly stdout: string;
  readonly outputs: Record<string, string>;
  readonly summary: string;
  /** What the Action left in RUNNER_TEMP. */
  readonly runnerTemp: readonly string[];
}

export interface RunOptions {
  readonly workspace: string;
  readonly inputs: Record<string, string>;
  readonly eventName: string;
  readonly event: unknown;
  readonly runId: number;
  readonly apiUrl: string;
  readonly resultsUrl: string;
  readonly repository: string;
  readonly workflowRef: string;
  /** More environment variables for the step. */
  readonly env?: Record<string, string>;
  /**
   * The workspace is a checkout (default): a workspace that is not a git
   * repository yet gets `git init` and every file in it added to the index, as
   * actions/checkout leaves it; only those files are linked and annotated.
   * false: no checkout, nothing linked.
   */
  readonly checkout?: boolean;
}

/** A runtime token the artifact client accepts: a JWT whose scp claim names the run and job backend ids. */
export function runtimeToken(runBackendId: string, jobBackendId: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ scp: `Actions.GenericRead:x Actions.Results:${runBackendId}:${jobBackendId}`, exp: 4_000_000_000 })}.c2lnbmF0dXJl`;
}

/** The defaults the runner fills in from action.yml (github-token's expression resolved to `token`). */
export function actionDefaults(token: string): Record<string, string> {
  const doc = parseYaml(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, { default?: string }> };
  const out: Record<string, string> = {};
  for (const [name, input] of Object.entries(doc.inputs)) {
    const value = input.default ?? '';
    out[name] = value === '${{ github.token }}' ? token : value;
  }
  return out;
}

/** Runs dist/index.js as the runner does: a child process with INPUT_* variables and the runner's files. */
export async function runBundledAction(options: RunOptions): Promise<ActionRun> {
  if (options.checkout !== false && !existsSync(join(options.workspace, '.git'))) {
    execFileSync('git', ['init', '-q'], { cwd: options.workspace });
    execFileSync('git', ['add', '-A'], { cwd: options.workspace });
  }
  const files = tempDir('ata-runner-');
  const outputPath = join(files, 'output');
  const summaryPath = join(files, 'summary.md');
  const eventPath = join(files, 'event.json');
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  writeFileSync(eventPath, JSON.stringify(options.event));
  const runnerTemp = tempDir('ata-runner-temp-');
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? files,
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_REPOSITORY: options.repository,
    GITHUB_RUN_ID: String(options.runId),
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: options.apiUrl,
    GITHUB_WORKFLOW_REF: options.workflowRef,
    RUNNER_TEMP: runnerTemp,
    ACTIONS_RUNTIME_TOKEN: runtimeToken('11111111-2222-3333-4444-555555555555', '66666666-7777-8888-9999-000000000000'),
    ACTIONS_RESULTS_URL: `${options.resultsUrl}/`,
    ACTIONS_ARTIFACT_UPLOAD_TIMEOUT_MS: '20000',
  };
  for (const [name, value] of Object.entries(options.inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  Object.assign(env, options.env);
  const child = spawn(process.execPath, [resolve('dist/index.js')], { cwd: options.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number>((done) => child.on('close', (c) => done(c ?? -1)));
  return { code, stdout, outputs: parseOutputs(readFileSync(outputPath, 'utf8')), summary: readFileSync(summaryPath, 'utf8'), runnerTemp: readdirSync(runnerTemp).sort() };
}

/** GITHUB_OUTPUT's (and GITHUB_ENV's, GITHUB_STATE's) `name<<delimiter` blocks. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join('\n');
  }
  return out;
}
