import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/ingest/registry.js';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { openTraceFile } from '../../src/io/trace-file.js';
import { corpusFile, corpusFilesUnder, describeCorpus } from '../public-corpus.js';
import { auditCorpus } from './corpus.js';

const OURS = ['langfuse', 'inspect', 'mcp', 'anthropic-messages', 'openai', 'claude-code'];
const EXPECTED: Record<string, string> = {
  langfuse: 'langfuse',
  'openai-agents': 'openai',
  'openai-chat': 'openai',
  'claude-code': 'claude-code',
  inspect: 'inspect',
  mcp: 'mcp',
};

describe('framework formats', () => {
  it('are registered before the native JSONL fallback', () => {
    const ids = FORMATS.map((f) => f.id);
    const native = ids.indexOf('native-jsonl');
    for (const id of OURS) expect(ids.indexOf(id)).toBeGreaterThanOrEqual(0);
    for (const id of OURS) expect(ids.indexOf(id)).toBeLessThan(native);
  });

});

const PATHS = Object.keys(EXPECTED).flatMap((folder) => corpusFilesUnder(folder)).sort();
const OTHERS = ['otlp/agentevals-tempo-batches.json', 'jaeger/agentevals-k8s.json'];

describeCorpus('framework formats on public files', [...PATHS, ...OTHERS], () => {
  it('detect every corpus file of their folders, with no rule crash', async () => {
    expect(PATHS).toHaveLength(24);
    const { result } = await auditCorpus(PATHS);
    expect(result.files.map((f) => [f.path, f.format])).toEqual(PATHS.map((p) => [p, EXPECTED[p.split('/')[0]!]]));
    expect(result.findings.filter((f) => f.ruleId === 'rule-crash' || f.ruleId === 'unknown-format')).toEqual([]);
  });

  it('leave the OpenTelemetry and Jaeger files to other readers', async () => {
    for (const file of OTHERS) {
      const { sample } = await openTraceFile(corpusFile(file), file, DEFAULT_LIMITS);
      expect(FORMATS.filter((f) => OURS.includes(f.id) && f.detect(sample)).map((f) => f.id)).toEqual([]);
    }
  });
});
