import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A program some tests need that no npm package provides: GitHub's markdown
 * renderer and a browser. `.ci/run` installs both. Outside CI a test that needs
 * a missing one is skipped, with one line saying what to install; under
 * CI=true it runs, and fails, so a CI machine without it can never pass.
 */
export interface SystemTool {
  readonly name: string;
  /** An absolute path, or a command looked up on PATH. */
  readonly command: string;
  readonly install: string;
  readonly neededFor: string;
}

export const CMARK_GFM: SystemTool = {
  name: 'cmark-gfm',
  command: 'cmark-gfm',
  install: 'apt-get install cmark-gfm (Debian/Ubuntu) or brew install cmark-gfm',
  neededFor: "rendering markdown the way GitHub does (the PR comment's and job summary's safety checks)",
};

export const CHROMIUM: SystemTool = {
  name: 'chromium',
  command: '/usr/bin/chromium',
  install: 'apt-get install chromium (Debian), driven by playwright-core, which downloads no browser',
  neededFor: 'the HTML report and Mermaid timeline tests in a real browser',
};

/** Where the tool is, or null when it is not installed. */
export function findTool(tool: SystemTool): string | null {
  const candidates = tool.command.includes('/') ? [tool.command] : (process.env['PATH'] ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, tool.command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

const announced = new Set<string>();

/** Whether tests that need `tool` run here: when it is installed, and always under CI=true. */
export function runsWith(tool: SystemTool): boolean {
  if (findTool(tool) !== null || process.env['CI'] === 'true') return true;
  if (!announced.has(tool.name)) {
    announced.add(tool.name);
    process.stderr.write(`skipped: tests that need ${tool.name} for ${tool.neededFor}; install it with: ${tool.install}\n`);
  }
  return false;
}

/**
 * `describe` for tests that need `tool` (its beforeAll hooks go inside): skipped
 * with one printed line outside CI when the tool is missing; under CI=true its
 * first test fails when the tool is missing.
 */
export function describeWith(tool: SystemTool, name: string, body: () => void): void {
  if (!runsWith(tool)) {
    describe.skip(name, body);
    return;
  }
  describe(name, () => {
    it(`has ${tool.name} installed (${tool.install})`, () => {
      expect(findTool(tool), `${tool.name} is missing: ${tool.install}`).not.toBeNull();
    });
    body();
  });
}

/** One test that needs `tool`, among tests that do not. */
export function itWith(tool: SystemTool, name: string, body: () => void | Promise<void>, timeout?: number): void {
  (runsWith(tool) ? it : it.skip)(name, body, timeout);
}
