import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, CMARK_GFM, findTool } from './system-tools.js';
import { tempDir } from './helpers.js';

/** Runs a tiny vitest file that uses describeWith on a tool that is not installed, with and without CI=true. */
function runProbe(ci: boolean) {
  const dir = tempDir('ata-probe-');
  const file = join(dir, 'probe.test.ts');
  const helper = join(process.cwd(), 'test/system-tools.ts');
  writeFileSync(
    file,
    [
      "import { expect, it } from 'vitest';",
      `import { describeWith, itWith } from ${JSON.stringify(helper)};`,
      "const missing = { name: 'no-such-tool', command: '/nonexistent/no-such-tool', install: 'apt-get install no-such-tool', neededFor: 'the probe' };",
      "describeWith(missing, 'needs it', () => { it('runs', () => expect(1).toBe(1)); });",
      "itWith(missing, 'also needs it', () => expect(1).toBe(1));",
      "it('needs nothing', () => expect(1).toBe(1));",
      '',
    ].join('\n'),
  );
  const env = { ...process.env, CI: ci ? 'true' : '' };
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--root', dir, '--dir', dir, '--reporter', 'json'], { env, encoding: 'utf8', cwd: process.cwd() });
  const json = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }> };
  const results = json.testResults.flatMap((t) => t.assertionResults.map((a) => `${a.title}: ${a.status}`)).sort();
  return { code: run.status, results, skipLines: run.stderr.split('\n').filter((line) => line.startsWith('skipped: ')) };
}

describe('tests that need a system tool', () => {
  it('finds tools by absolute path or on PATH', () => {
    expect(findTool({ ...CMARK_GFM, command: 'node' })).toMatch(/node$/);
    expect(findTool({ ...CHROMIUM, command: '/nonexistent/chromium' })).toBeNull();
  });

  it('outside CI: skipped, with one line saying what to install', () => {
    const probe = runProbe(false);
    expect(probe.code).toBe(0);
    expect(probe.results).toEqual(['also needs it: skipped', 'needs nothing: passed', 'runs: skipped']);
    expect(probe.skipLines).toEqual(['skipped: tests that need no-such-tool for the probe; install it with: apt-get install no-such-tool']);
  });

  it('under CI=true: they run and fail when the tool is missing', () => {
    const probe = runProbe(true);
    expect(probe.code).toBe(1);
    expect(probe.results).toEqual(['also needs it: passed', 'has no-such-tool installed (apt-get install no-such-tool): failed', 'needs nothing: passed', 'runs: passed']);
    expect(probe.skipLines).toEqual([]);
  }, 60_000);
});
