import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditPaths } from './corpus.js';

const corpus = 'test/fixtures/corpus';
/** The format every file of each corpus folder is, by what the file is (not by running the tool). */
const FOLDER_FORMAT: Record<string, string | ((name: string) => string)> = {
  // VCR cassettes of both vendors' APIs: the Anthropic ones (by their recorded host) read as Anthropic messages.
  cassettes: (name) => (name.includes('anthropic') ? 'anthropic-messages' : 'openai'),
  'claude-code': 'claude-code',
  'claude-code-export': 'claude-code-export',
  codex: 'codex-rollout',
  'gemini-cli': 'gemini-cli',
  'google-adk': 'google-adk',
  inspect: 'inspect',
  jaeger: 'jaeger-json',
  langfuse: 'langfuse',
  mcp: 'mcp',
  'openai-agents': 'openai',
  'openai-chat': 'openai',
  openhands: 'openhands',
  'otel-spans': 'otel-spans',
  otlp: 'otlp-json',
  // A benchmark dataset, not a trace: one unknown-format warning.
  unrelated: 'unknown',
};

function formatOf(path: string): string {
  const [folder, name] = path.split('/').slice(3);
  const format = FOLDER_FORMAT[folder!]!;
  return typeof format === 'string' ? format : format(name!);
}

describe('detection: every public file is read by the format it is, and only by it', () => {
  it('each corpus folder is detected as its format, and a malformed-record only where a file breaks its format', async () => {
    const folders = readdirSync(corpus, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'licenses').map((d) => d.name).sort();
    expect(folders).toEqual(Object.keys(FOLDER_FORMAT).sort());
    const files = folders.flatMap((folder) => readdirSync(`${corpus}/${folder}`).map((name) => `${corpus}/${folder}/${name}`)).sort();
    const { result } = await auditPaths(files);
    expect(result.files.map((f) => [f.path, f.format])).toEqual(files.map((path) => [path, formatOf(path)]));
    // The claude-code-log edge-case transcript is the one corpus file written to be broken; the dataset is no trace.
    const malformed = new Set(result.findings.filter((f) => f.ruleId === 'malformed-record' || f.ruleId === 'unknown-format').map((f) => f.file));
    expect([...malformed].sort()).toEqual([`${corpus}/claude-code/claude-code-log-edge-cases.jsonl`, `${corpus}/unrelated/multi-swe-bench-patch.jsonl`]);
  });
});
