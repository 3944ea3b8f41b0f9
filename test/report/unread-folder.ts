import { readFileSync, statSync } from 'node:fs';
import { onePixelPng } from '../ingest/one-pixel-png.js';
import { corpusFile } from '../public-corpus.js';

/**
 * Issue 44's folder: eleven real public traces, seven of them not read, beside a README and an
 * image. Why each is not read, known without the tool:
 * - the ToolBench answer trees and the Multi-SWE-bench patch records are formats no reader reads
 *   (no tool-call records at all: a benchmark's search tree, a dataset of patches);
 * - the two ADK eval sets (`*.test.json`) describe expected calls, not a run: the ADK reader
 *   claims them and reads no record;
 * - the two MedAgentBench logs are 1,021,860 and 1,727,063 bytes, past the folder's
 *   `limits.max-file-bytes: 1000000` (whose `malformed-record` the configuration makes a warning).
 * The other four are read (Claude Code, a pydantic-ai OpenAI cassette, OpenHands, any-agent).
 */
export const UNREAD_FILES: ReadonlyArray<readonly [file: string, reason: string, format?: string]> = [
  ['agentbench/medagentbench-deepseekv3-runs.jsonl', 'unreadable', 'agentbench'],
  ['agentbench/medagentbench-gemini-2.0-runs.jsonl', 'unreadable', 'agentbench'],
  ['google-adk/home-automation-simple.test.json', 'no-records', 'google-adk'],
  ['google-adk/roll-die.test.json', 'no-records', 'google-adk'],
  ['toolbench/82217_ChatGPT_CoT@1.json', 'unknown-format'],
  ['toolbench/82217_DFS_woFilter_w2.json', 'unknown-format'],
  ['unrelated/multi-swe-bench-patch.jsonl', 'unknown-format'],
];
export const READ_FILES = ['any-agent/OPENAI_trace.json', 'cassettes/pydantic-ai-openai-chat-tool-calls.yaml', 'claude-code/simonw-sample-session.jsonl', 'openhands/basic.json'];
export const UNREAD_CORPUS = [...UNREAD_FILES.map(([file]) => file), ...READ_FILES];

export const UNREAD_HEADLINE = '⚠️ 7 of 11 files not read (3 unknown format, 2 unreadable, 2 no records) · ✅ no errors (5 warnings, 8 notes)';
export const README = '# Traces\n\nWhat our CI writes, one folder per framework. Regenerate with `make traces`.\n';
export const CONFIG = 'limits:\n  max-file-bytes: 1000000\nrules:\n  malformed-record: warning\n';

/** The folder's files under `traces/`, and its configuration file; `config` adds to it. */
export function unreadFolder(config = ''): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = { 'agent-trace-audit.yml': CONFIG + config, 'traces/README.md': README, 'traces/diagram.png': onePixelPng() };
  for (const file of UNREAD_CORPUS) files[`traces/${file}`] = readFileSync(corpusFile(file));
  for (const file of UNREAD_FILES.filter(([, reason]) => reason === 'unreadable').map(([file]) => file)) {
    if (statSync(corpusFile(file)).size <= 1_000_000) throw new Error(`${file} is no longer past the folder's limit`);
  }
  return files;
}
