import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/ingest/registry.js';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { openTraceFile } from '../../src/io/trace-file.js';
import { auditPaths } from './corpus.js';

const corpus = 'test/fixtures/corpus';
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

  it('detect every corpus file of their folders, with no rule crash', async () => {
    const paths = Object.keys(EXPECTED).flatMap((folder) =>
      readdirSync(`${corpus}/${folder}`)
        .sort()
        .map((name) => `${corpus}/${folder}/${name}`),
    ).sort();
    expect(paths).toHaveLength(24);
    const { result } = await auditPaths(paths);
    expect(result.files.map((f) => [f.path, f.format])).toEqual(paths.map((p) => [p, EXPECTED[p.split('/')[3]!]]));
    expect(result.findings.filter((f) => f.ruleId === 'rule-crash' || f.ruleId === 'unknown-format')).toEqual([]);
  });

  it('leave the OpenTelemetry and Jaeger files to other readers', async () => {
    for (const path of [`${corpus}/otlp/agentevals-tempo-batches.json`, `${corpus}/jaeger/agentevals-k8s.json`]) {
      const { sample } = await openTraceFile(path, path, DEFAULT_LIMITS);
      expect(FORMATS.filter((f) => OURS.includes(f.id) && f.detect(sample)).map((f) => f.id)).toEqual([]);
    }
  });
});
