import { judge } from '../../src/report/judge.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { MaterializedAudit } from '../../src/audit/engine.js';
import { resolveConfig } from '../../src/config.js';
import { commentMarker } from '../../src/github/artifact-name.js';
import { metricsLines } from '../../src/report/metrics-view.js';
import { findingDelta } from '../../src/report/delta.js';
import { mermaidSection } from '../../src/report/mermaid.js';
import type { CommentInput } from '../../src/report/comment/render.js';
import type { Report } from '../../src/report/schema.js';
import { audited } from '../helpers.js';
import { corpusFile, corpusFiles, manifest } from '../public-corpus.js';

/**
 * A realistic pull request run: the public corpus (test/public-corpus.ts), the examples, the
 * catalog, replay and hostile fixtures, all of them real files of this
 * repository (45 on the head). The PR adds three dirty traces (a leaked key, an
 * orphan call, a recovery with retries) and deletes one (a dirty replay session).
 */
const files = (dir: string, ext: RegExp) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => ext.test(name))
    .map((name) => join(dir, name).replace(/\\/g, '/'))
    .sort();

const FIRST_CORPUS = /^(claude-code|inspect|jaeger|langfuse|mcp|openai-agents|openai-chat|otlp)\//;
const LATER_LANGFUSE = /^langfuse\/(koog|agno|beeai|langgraph-js)/;

/** The public files of the run, by their path under the corpus folder (which is also how the report shows them). */
export const PUBLIC_FILES = corpusFiles().filter((path) => FIRST_CORPUS.test(path) && !LATER_LANGFUSE.test(path)).sort();

export const COMMON = [
  'examples/clean/span-log.jsonl',
  'examples/dirty/boundary-payload-mutation.jsonl',
  'examples/dirty/typed-events-unmatched.jsonl',
  // The first public corpus (22 files, eight formats): the run the issue measured, kept at 45 files as the corpus grows.
  ...PUBLIC_FILES,
  ...files('test/fixtures/catalog', /\.jsonl$/),
  'test/fixtures/replay/session-clean.jsonl',
  ...files('test/hostile/fixtures', /\.jsonl$/).slice(0, 14),
];
export const HEAD_ONLY = ['examples/dirty/span-log-secret-in-trace.jsonl', 'examples/dirty/span-log-orphan.jsonl', 'test/github/fixtures/pr-traces/recovery.jsonl'];
export const BASE_ONLY = ['test/fixtures/replay/session-dirty.jsonl'];

export const HEAD_SHA = 'c0ffee4d2b7a9e1f03c5d8b6a4e2f0d1c3b5a7e9';
export const BASE_SHA = '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b';
export const REPO_URL = 'https://github.com/octo-org/agent-app';
export const RUN_URL = `${REPO_URL}/actions/runs/102`;
export const ARTIFACT_URL = `${RUN_URL}/artifacts/1102`;

async function audit(paths: readonly string[]): Promise<{ report: Report; result: MaterializedAudit }> {
  const config = resolveConfig();
  const inputs = [...paths].sort().map((path) => ({ path: manifest().has(path) ? corpusFile(path) : path, display: path }));
  return audited(inputs, config, { collectTimelines: true });
}

export interface RealisticRun {
  readonly head: Report;
  readonly base: Report;
  readonly input: CommentInput;
}

/** The head and base reports and the comment input the Action would build for them (audit mode, baseline found). */
export async function realisticRun(): Promise<RealisticRun> {
  const { report: head, result } = await audit([...COMMON, ...HEAD_ONLY]);
  const { report: base } = await audit([...COMMON, ...BASE_ONLY]);
  const input: CommentInput = {
    verdict: { ...judge(head, { config: resolveConfig(), baseline: base, defaultGate: 'new', allowEmpty: false }), headSha: HEAD_SHA, baseSha: BASE_SHA },
    comparison: { kind: 'compared', delta: findingDelta(base, head) },
    files: { blobBase: `${REPO_URL}/blob/${HEAD_SHA}`, artifacts: new Map() },
    more: { runUrl: RUN_URL, artifactUrl: ARTIFACT_URL },
    details: [`Details: [workflow run](${RUN_URL}), artifact [agent-trace-audit](${ARTIFACT_URL}).`, `Seal digest: \`sha256:${'5e'.repeat(32)}\``],
    metrics: metricsLines(head.metrics),
    base: ['**Base branch** (run 101 on main):', '- tools added (2): `@octocat`, `deploy`'],
    timelines: (maxChars) => mermaidSection(head, result.timelines, maxChars),
    tail: [commentMarker('')],
  };
  return { head, base, input };
}
