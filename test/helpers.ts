import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';
import { runAudit, type AuditResult } from '../src/audit/engine.js';
import { resolveConfig, type ConfigFile } from '../src/config.js';
import type { Finding } from '../src/model/finding.js';

/** Every folder tempDir made in this test file and has not removed yet. */
const madeHere = new Set<string>();

function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  madeHere.delete(dir);
}

// Registered when a test file imports this module (vitest evaluates it afresh
// for each file, so each file gets its own hook): whatever is left
// (folders made at collection or in a beforeAll) goes when the file finishes.
afterAll(() => {
  for (const dir of [...madeHere]) removeFolder(dir);
});

/**
 * A fresh empty folder in the OS temp dir, removed when the current test
 * finishes; made outside a test (module scope, describe body, beforeAll),
 * when the test file finishes.
 */
export function tempDir(prefix = 'ata-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeHere.add(dir);
  try {
    onTestFinished(() => removeFolder(dir));
  } catch {
    // Not inside a test: the afterAll above removes it.
  }
  return dir;
}

/** Writes files (name → text or bytes) into a fresh temporary folder (see tempDir) and returns its path. */
export function tempTree(files: Record<string, string | Uint8Array>): string {
  const root = tempDir();
  for (const [name, content] of Object.entries(files)) {
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return root;
}

/** JSON lines from objects (each line ends with a newline). */
export function jsonl(...records: unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** Audits in-memory files with the real engine (files are written to a temporary folder). */
export async function auditFiles(files: Record<string, string | Uint8Array>, config: ConfigFile = {}): Promise<AuditResult> {
  const root = tempTree(files);
  const inputs = Object.keys(files)
    .sort()
    .map((name) => ({ path: join(root, name), display: name }));
  return runAudit(inputs, resolveConfig(config));
}

/** The findings of one rule, reduced to what tests usually assert. */
export function findingsOf(result: AuditResult, ruleId: string): Array<Pick<Finding, 'line' | 'callId' | 'tool' | 'runId' | 'message'>> {
  return result.findings
    .filter((f) => f.ruleId === ruleId)
    .map(({ line, callId, tool, runId, message }) => ({ line, callId, tool, runId, message }));
}
