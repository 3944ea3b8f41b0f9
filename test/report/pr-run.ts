import { join } from 'node:path';
import type { MaterializedAudit } from '../../src/audit/engine/engine.js';
import { resolveConfig } from '../../src/config/config.js';
import { commentMarker } from '../../src/github/artifacts/artifact-name.js';
import { metricsLines } from '../../src/report/render/metrics-view.js';
import { findingDelta } from '../../src/report/verdict/delta.js';
import { mermaidSection } from '../../src/report/render/mermaid.js';
import type { CommentInput } from '../../src/report/comment/render.js';
import type { Report } from '../../src/report/schema.js';
import { audited, tempTree } from '../helpers.js';
import { corpusFile } from '../public-corpus.js';
import { judge } from '../../src/report/verdict/judge.js';

/**
 * A realistic pull request run of a repository whose agent suite already has
 * findings: 66 public traces committed under `traces/`, the examples and the
 * catalog fixtures (committed), and an agent suite whose traces the job
 * writes during the run (`out/suite-*.jsonl`, never committed). The pull
 * request adds two dirty examples and one suite trace (16 new findings) and
 * drops two suite traces that had 40 findings (40 fixed).
 */
export const CORPUS = [
  'otlp/agentevals-tempo-batches.json',
  'jaeger/agentevals-k8s.json',
  'langfuse/microsoft-agent.trace.json',
  'langfuse/pydantic-ai-tools.trace.json',
  'langfuse/vercel-aisdk.trace.json',
  'langfuse/langgraph-python.trace.json',
  'langfuse/llamaindex.trace.json',
  'langfuse/koog.trace.json',
  'langfuse/agno.trace.json',
  'langfuse/beeai.trace.json',
  'langfuse/langgraph-js.trace.json',
  'openai-agents/v1_11_tool_output_custom_data.json',
  'openai-agents/v1_13_programmatic_tool_calling.json',
  'openai-chat/otel-contrib-tool-calls-cassette.yaml',
  'claude-code/claude-code-log-representative.jsonl',
  'claude-code/claude-code-log-edge-cases.jsonl',
  'claude-code/claude-code-log-todowrite.jsonl',
  'claude-code/simonw-sample-session.jsonl',
  'inspect/log_tool_call_error.json',
  'inspect/log_message_deduplication.eval',
  'inspect/log_read_sample.json',
  'mcp/call-tool-request.json',
  'mcp/invalid-tool-input-error.json',
  'mcp/call-tool-result-response.json',
  'mcp/invalid-tool-arguments.json',
  'mcp/list-tools-result-response.json',
  'cassettes/openllmetry-anthropic-tools.yaml',
  'cassettes/openllmetry-anthropic-tools-history.yaml',
  'cassettes/openllmetry-openai-chat-tool-calls.yaml',
  'cassettes/openllmetry-anthropic-tools-streaming.yaml',
  'cassettes/openllmetry-openai-tools-streaming-parallel.yaml',
  'cassettes/otel-contrib-bedrock-anthropic-tool-call.yaml',
  'codex/agent-history-escalation.jsonl',
  'codex/agent-history-golden.jsonl',
  'codex/agent-history-compaction.jsonl',
  'gemini-cli/agent-history-tool-error.jsonl',
  'gemini-cli/agent-history-golden.json',
  'openhands/basic.json',
  'openhands/basic_gui_mode.json',
  'openhands/wrong_initial_state.json',
  'openhands/basic_interactions.json',
  'google-adk/flow-complex-spark.session.json',
  'google-adk/context-update.session.json',
  'google-adk/roll-die.test.json',
  'google-adk/home-automation-simple.test.json',
  'otel-spans/monocle-adk-trace.json',
  'otel-spans/monocle-langgraph-trace.json',
  'otel-spans/monocle-strands-trace.json',
  'claude-code-export/simonw-sample-session.json',
  'claude-code-export/thayerhealey3-sample-session.json',
  'cassettes/pydantic-ai-openai-responses-tool-call.yaml',
  'cassettes/pydantic-ai-anthropic-parallel-tool-calls.yaml',
  'cassettes/gemini-pydantic-ai-instructions-tool-calls.yaml',
  'cassettes/gemini-crewai-parallel-tool-calls.yaml',
  'cassettes/anthropic-server-tools-web-search.yaml',
  'cassettes/anthropic-server-tools-code-execution.yaml',
  'openinference/openinference-genai-client-span-tool-calls.json',
  'swe-agent/sweagent-fc-test-repo-1c2844.traj',
  'swe-agent/sweagent-text-humanevalfix-python-0.traj',
  'swe-agent/mini-swe-agent-local.traj.json',
  'agentbench/medagentbench-gemini-2.0-runs.jsonl',
  'agentbench/medagentbench-deepseekv3-runs.jsonl',
  'letta/memgpt-agent-with-convo.af',
  'letta/loop.af',
  'any-agent/GOOGLE_trace.json',
  'any-agent/LANGCHAIN_trace.json',
] as const;

export const REPO_FILES = ['examples/clean/span-log.jsonl', 'examples/dirty/boundary-payload-mutation.jsonl', 'examples/dirty/typed-events-unmatched.jsonl', 'test/fixtures/catalog/python-schemas.jsonl', 'test/fixtures/catalog/seed-catalog-trace.jsonl'];
/** Suite traces written during the run on both branches, by name and call count. */
const SUITE: ReadonlyArray<readonly [string, number]> = [20, 20, 20, 20, 20, 14, 16, 16].map((calls, i) => [`out/suite-${i + 1}.jsonl`, calls] as const);
export const HEAD_ONLY = ['examples/dirty/span-log-secret-in-trace.jsonl', 'examples/dirty/span-log-orphan.jsonl', 'out/suite-new.jsonl'];
export const BASE_ONLY = ['out/suite-old-a.jsonl', 'out/suite-old-b.jsonl'];
const NEW_SUITE: readonly [string, number] = ['out/suite-new.jsonl', 7];
const OLD_SUITES: ReadonlyArray<readonly [string, number]> = BASE_ONLY.map((name) => [name, 16] as const);

export const HEAD_SHA = 'c0ffee4d2b7a9e1f03c5d8b6a4e2f0d1c3b5a7e9';
export const BASE_SHA = '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b';
export const REPO_URL = 'https://github.com/octo-org/agent-app';
export const RUN_URL = `${REPO_URL}/actions/runs/102`;
export const ARTIFACT_URL = `${RUN_URL}/artifacts/1102`;

/** A suite trace: a catalog, then `calls` calls; every fifth has no result, others fail with a traceback or a bare message, or succeed. */
export function suiteTrace(name: string, calls: number): string {
  const run = name.replace(/^.*\/|\.jsonl$/g, '');
  const tools = ['read_file', 'search_docs', 'fetch_page', 'pytest'];
  const out: unknown[] = [{ type: 'catalog', run_id: run, catalog_names: ['fetch_page', 'pytest', 'read_file', 'search_docs'] }];
  for (let k = 0; k < calls; k += 1) {
    const id = `c${k}`;
    const tool = tools[k % 4]!;
    out.push({ type: 'tool_call', run_id: run, tool_call_id: id, name: tool, arguments: { path: `src/module_${k}.py` } });
    const kind = k % 5;
    if (kind === 0) continue;
    const base = { type: 'tool_result', run_id: run, tool_call_id: id, name: tool };
    if (kind === 1) out.push({ ...base, error: 'Traceback (most recent call last):\n  File "/srv/app/tools/fetch.py", line 88, in fetch\n    raise TimeoutError(\'upstream did not answer in 8000 ms\')\nTimeoutError: upstream did not answer in 8000 ms' });
    else if (kind === 2) out.push({ ...base, error: { message: 'connection reset by peer while reading the response body' } });
    else out.push({ ...base, result: { ok: true } });
  }
  return out.map((record) => `${JSON.stringify(record)}\n`).join('');
}

async function audit(suites: ReadonlyArray<readonly [string, number]>, repoFiles: readonly string[]): Promise<{ report: Report; result: MaterializedAudit }> {
  const written = tempTree(Object.fromEntries(suites.map(([name, calls]) => [name, suiteTrace(name, calls)])));
  const inputs = [
    ...CORPUS.map((file) => ({ path: corpusFile(file), display: `traces/${file}` })),
    ...repoFiles.map((path) => ({ path, display: path })),
    ...suites.map(([name]) => ({ path: join(written, name), display: name })),
  ].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  return audited(inputs, resolveConfig(), { collectTimelines: true });
}

export interface PullRequestRun {
  readonly head: Report;
  readonly base: Report;
  /** The files committed at the head commit (what `git ls-files` lists): the corpus under traces/, the examples, the fixtures. */
  readonly tracked: ReadonlySet<string>;
  readonly input: CommentInput;
}

/** The head and base reports and the comment input the Action builds for them (audit mode, baseline found). */
export async function pullRequestRun(): Promise<PullRequestRun> {
  const headRepo = [...REPO_FILES, ...HEAD_ONLY.filter((f) => !f.startsWith('out/'))];
  const { report: head, result } = await audit([...SUITE, NEW_SUITE], headRepo);
  const { report: base } = await audit([...SUITE, ...OLD_SUITES], REPO_FILES);
  const tracked = new Set([...CORPUS.map((file) => `traces/${file}`), ...headRepo]);
  const input: CommentInput = {
    verdict: { ...judge(head, { config: resolveConfig(), baseline: base, defaultGate: 'new', allowEmpty: false }), headSha: HEAD_SHA, baseSha: BASE_SHA },
    comparison: { kind: 'compared', delta: findingDelta(base, head) },
    files: { blobBase: `${REPO_URL}/blob/${HEAD_SHA}`, tracked },
    more: { runUrl: RUN_URL, artifactUrl: ARTIFACT_URL },
    details: [`Details: [workflow run](${RUN_URL}), artifact [agent-trace-audit](${ARTIFACT_URL}).`, `Seal digest: \`sha256:${'5e'.repeat(32)}\``],
    metrics: metricsLines(head.metrics),
    base: ['**Base branch** (run 101 on main):', '- tools added (2): `@octocat`, `deploy`'],
    timelines: (maxChars) => mermaidSection(head, result.timelines, maxChars, { heading: false }),
    tail: [commentMarker('')],
  };
  return { head, base, tracked, input };
}
