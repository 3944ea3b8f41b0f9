import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, tempDir } from '../helpers.js';

const NPM_ENV = (cache: string) => ({ PATH: process.env['PATH'], HOME: cache, npm_config_cache: join(cache, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });

function npm(args: string[], cwd: string, cache: string) {
  const npmCli = join(process.execPath, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  const run = existsSync(npmCli)
    ? spawnSync(process.execPath, [npmCli, ...args], { cwd, encoding: 'utf8', env: NPM_ENV(cache), timeout: 120_000 })
    : spawnSync('npm', args, { cwd, encoding: 'utf8', env: NPM_ENV(cache), timeout: 120_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the npm package', () => {
  it('packs the bundled CLI, README and LICENSE, installs offline into an empty folder with nothing else, and runs as npx agent-trace-audit', () => {
    const cache = tempDir('ata-npm-home-');
    const packed = tempDir('ata-pack-');
    const pack = npm(['pack', '--pack-destination', packed, '--json'], process.cwd(), cache);
    expect(pack.code, pack.stderr).toBe(0);
    const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    expect(info!.files.map((f) => f.path).sort()).toEqual(['LICENSE', 'README.md', 'agent-trace-audit.schema.json', 'dist/cli.js', 'dist/licenses.txt', 'dist/package.json', 'package.json']);
    const tarball = join(packed, info!.filename);
    const manifest = JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<string, unknown>;
    expect([manifest['private'], manifest['dependencies'], manifest['bin'], manifest['license']]).toEqual([undefined, undefined, { 'agent-trace-audit': 'dist/cli.js' }, 'MIT']);
    expect(execFileSync('tar', ['-xOzf', tarball, 'package/dist/cli.js'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).startsWith('#!/usr/bin/env node\n')).toBe(true);

    const user = tempDir('ata-user-');
    const install = npm(['install', '--offline', tarball], user, cache);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/EBADENGINE|deprecated/);
    // Nothing but the package itself: the bundle needs no runtime dependency.
    expect(readdirSync(join(user, 'node_modules')).sort()).toEqual(['.bin', '.package-lock.json', 'agent-trace-audit']);

    writeFileSync(
      join(user, 'trace.jsonl'),
      jsonl(
        { run_id: 'r1', kind: 'tool_call', call_id: 'c1', tool: 'web_search' },
        { run_id: 'r1', kind: 'llm' },
      ),
    );
    const audit = npm(['exec', '--offline', '--', 'agent-trace-audit', 'audit', 'trace.jsonl'], user, cache);
    expect(audit.code).toBe(1);
    expect(audit.stdout.split('\n').slice(0, 2)).toEqual(['❌ 1 error', `agent-trace-audit ${String(manifest['version'])}: 1 file(s), 1 run(s), 1 tool call(s), 0 result(s)`]);
    expect(audit.stdout).toContain("orphan-call                  trace.jsonl:1  r1   c1    call 'c1' to 'web_search' has no result (the model kept generating afterwards)");
    const npx = spawnSync('npx', ['--offline', 'agent-trace-audit', 'audit', 'trace.jsonl', '--format', 'sarif'], { cwd: user, encoding: 'utf8', env: NPM_ENV(cache), timeout: 120_000 });
    expect(npx.status).toBe(1);
    expect((JSON.parse(npx.stdout) as { runs: Array<{ results: Array<{ ruleId: string }> }> }).runs[0]!.results.map((r) => r.ruleId)).toEqual(['catalog-missing', 'continued-while-outstanding', 'orphan-call']);
    expect(readFileSync(join(user, 'node_modules/agent-trace-audit/LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  }, 240_000);
});
