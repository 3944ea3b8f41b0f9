import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { fileSink, sealFile, verifyFile } from '../../src/seal/index.js';
import { tempTree } from '../helpers.js';
import { corpusFile, describeCorpus } from '../public-corpus.js';

// Real traces from the public corpus: sealing is dialect-blind, and refuses what JCS would change.
const FILES = [
  'claude-code/claude-code-log-representative.jsonl',
  'claude-code/claude-code-log-todowrite.jsonl',
  'claude-code/simonw-sample-session.jsonl',
  'otlp/agentevals-tempo-batches.json',
  'claude-code/claude-code-log-edge-cases.jsonl',
  'mcp/call-tool-request.json',
];

async function seal(file: string) {
  const out = join(tempTree({}), 'sealed.jsonl');
  const checkpoint = await sealFile({
    path: corpusFile(file),
    display: file,
    sink: await fileSink(out, 'sealed.jsonl'),
    checkpointPath: `${out}.seal.json`,
    checkpointDisplay: 'sealed.jsonl.seal.json',
    mode: 'jcs',
    limits: DEFAULT_LIMITS,
    env: {},
  });
  return { out, checkpoint };
}

describeCorpus('sealing real traces', FILES, () => {
  it.each([
    ['claude-code/claude-code-log-representative.jsonl', 12],
    ['claude-code/claude-code-log-todowrite.jsonl', 12],
    ['claude-code/simonw-sample-session.jsonl', 8],
  ])('%s seals into %i links that verify intact against the checkpoint', async (file, records) => {
    const { out, checkpoint } = await seal(file);
    expect(checkpoint.records).toBe(records);
    expect(readFileSync(out, 'utf8').split('\n')).toHaveLength(records + 1);
    const verdict = await verifyFile(out, 'sealed.jsonl', checkpoint, DEFAULT_LIMITS);
    expect([verdict.status, verdict.chain.intact]).toEqual(['intact', records]);
  });

  it('refuses an OTLP export whose nanosecond timestamps JCS would round, naming the field', async () => {
    await expect(seal('otlp/agentevals-tempo-batches.json')).rejects.toThrow(
      'otlp/agentevals-tempo-batches.json:1: cannot be sealed in jcs form: integer 1777555053781172000 is beyond 2^53 and would lose digits at .batches[0].instrumentationLibrarySpans[0].spans[0].endTimeUnixNano',
    );
  });

  it('refuses a line that is not an object, and says what to do with a pretty-printed document', async () => {
    await expect(seal('claude-code/claude-code-log-edge-cases.jsonl')).rejects.toThrow(
      'claude-code/claude-code-log-edge-cases.jsonl:13: a record must be a JSON object, not a string',
    );
    await expect(seal('mcp/call-tool-request.json')).rejects.toThrow(
      'mcp/call-tool-request.json:1: not a JSON record (expected a string key at position 1); seal reads JSON Lines, one record per line: put a JSON document written over several lines on one line first (jq -c)',
    );
  });
});
