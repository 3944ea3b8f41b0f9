import { expect, it } from 'vitest';
import { corpusFile, corpusFiles, describeCorpus } from '../public-corpus.js';
import { auditCorpus } from './corpus.js';

/** The format every file of each corpus folder is, by what the file is (not by running the tool). */
const FOLDER_FORMAT: Record<string, string | ((name: string) => string)> = {
  // VCR cassettes of three vendors' APIs: the Anthropic ones (by their recorded host) read as Anthropic messages, the Gemini ones as the Gemini API.
  cassettes: (name) => (name.startsWith('gemini') ? 'gemini-api' : name.includes('anthropic') ? 'anthropic-messages' : 'openai'),
  agentbench: 'agentbench',
  'any-agent': 'any-agent',
  // Amazon Bedrock cassettes (vcrpy): Agents event streams, Converse (any model) and Nova; InvokeModel of an Anthropic model is Anthropic Messages.
  bedrock: (name) => (name.includes('-anthropic-') ? 'anthropic-messages' : 'bedrock'),
  'claude-code': 'claude-code',
  'claude-code-export': 'claude-code-export',
  codex: 'codex-rollout',
  'gemini-cli': 'gemini-cli',
  // go-vcr cassettes, read by the reader of the API they recorded (their address).
  'go-vcr': (name) => (name.includes('-gemini-') ? 'gemini-api' : name.includes('-anthropic-') ? 'anthropic-messages' : 'openai'),
  'google-adk': 'google-adk',
  inspect: 'inspect',
  jaeger: 'jaeger-json',
  langfuse: 'langfuse',
  letta: 'letta',
  mcp: 'mcp',
  'openai-agents': 'openai',
  'openai-chat': 'openai',
  openhands: 'openhands',
  // Phoenix span JSON and a bare OpenInference attribute map: OpenInference is a dialect of the span reader.
  openinference: 'otel-spans',
  'otel-spans': 'otel-spans',
  otlp: 'otlp-json',
  'swe-agent': (name) => (name.endsWith('.traj.json') ? 'mini-swe-agent' : 'swe-agent'),
  // A ToolBench answer: a real trace in a format no built-in reader knows (docs/formats/custom.md maps it).
  toolbench: 'unknown',
  // A benchmark dataset, not a trace: one unknown-format warning.
  unrelated: 'unknown',
  // A HAR recording of an agent's HTTP calls and verifiers' eval results (tool calls as JSON text):
  // real traces no built-in reader knows (docs/formats/custom.md maps both).
  har: 'unknown',
  verifiers: 'unknown',
};

/** Folders whose files are all pending in the manifest: absent until the shared corpus holds them. */
const PENDING_FOLDERS = new Set(['bedrock', 'go-vcr', 'har', 'verifiers']);

function formatOf(path: string): string {
  const [folder, name] = path.split('/');
  const format = FOLDER_FORMAT[folder!]!;
  return typeof format === 'string' ? format : format(name!);
}

const FILES = corpusFiles();

describeCorpus('detection: every public file is read by the format it is, and only by it', FILES, () => {
  it('each corpus folder is detected as its format, and a malformed-record only where a file breaks its format', async () => {
    const folders = [...new Set(FILES.map((file) => file.split('/')[0]!))].sort();
    expect(folders).toEqual(Object.keys(FOLDER_FORMAT).filter((folder) => !PENDING_FOLDERS.has(folder) || folders.includes(folder)).sort());
    for (const file of FILES) corpusFile(file);
    const { result } = await auditCorpus(FILES);
    expect(result.files.map((f) => [f.path, f.format])).toEqual(FILES.map((path) => [path, formatOf(path)]));
    // The claude-code-log edge-case transcript is the one corpus file written to be broken; the dataset is no trace;
    // a ToolBench answer, a HAR recording and verifiers' results are formats the tool does not read (without a mapping).
    const malformed = new Set(result.findings.filter((f) => f.ruleId === 'malformed-record' || f.ruleId === 'unknown-format').map((f) => f.file));
    const unknown = FILES.filter((file) => formatOf(file) === 'unknown');
    expect([...malformed].sort()).toEqual(['claude-code/claude-code-log-edge-cases.jsonl', ...unknown].sort());
  });
});
