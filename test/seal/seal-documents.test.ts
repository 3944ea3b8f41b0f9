import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sealInputs } from '../../src/action/seal-step.js';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { silentLogger, type Logger } from '../../src/logger.js';
import { formatVerdict, readCheckpoint, sealToFolder, verifyFile } from '../../src/seal/index.js';
import { tempDir } from '../helpers.js';
import { corpusFile, describeCorpus } from '../public-corpus.js';

// Whole-document traces (Langfuse, Inspect JSON and .eval, MCP, a YAML cassette) are sealed as a chain over
// their bytes; an OTLP export on one line is one record, and a JSONL file with lines that are not objects has
// its records sealed (those lines are listed in the checkpoint: test/hostile/artifacts/unsealed-lines.test.ts).
const KINDS: Record<string, 'bytes' | 'records'> = {
  'langfuse/pydantic-ai-tools.trace.json': 'bytes',
  'inspect/log_tool_call_error.json': 'bytes',
  'inspect/log_message_deduplication.eval': 'bytes',
  'otlp/agentevals-tempo-batches.json': 'records',
  'mcp/call-tool-request.json': 'bytes',
  'openai-chat/otel-contrib-tool-calls-cassette.yaml': 'bytes',
  'test/hostile/fixtures/non-object-lines.jsonl': 'records',
};
const DOCUMENTS = Object.keys(KINDS);
const PUBLIC = DOCUMENTS.filter((name) => !name.startsWith('test/'));
/** Where a document is read from: the public corpus, or this repository's own fixtures. */
const pathOf = (name: string) => (name.startsWith('test/') ? name : corpusFile(name));

const python = (sealed: string, checkpoint: string) => spawnSync('python3', ['docs/verify_sealed.py', sealed, checkpoint], { encoding: 'utf8' });

describeCorpus('sealing whole documents as bytes', PUBLIC, () => {
  it.each(DOCUMENTS)('%s: sealed, the chunks are the file byte for byte, verify and the Python verifier accept it and catch a one-byte change', async (path) => {
    const out = tempDir('ata-seal-doc-');
    const sealed = await sealToFolder(pathOf(path), out, DEFAULT_LIMITS, {}, path);
    expect(sealed.kind).toBe(KINDS[path]);
    const source = readFileSync(pathOf(path));
    if (KINDS[path] === 'bytes') {
      const checkpoint = JSON.parse(readFileSync(sealed.checkpointPath, 'utf8')) as { kind: string; records: number; source_sha256: string };
    expect(checkpoint.kind).toBe('bytes');
    expect(checkpoint.records).toBe(Math.ceil(source.length / (48 * 1024)));
    expect(checkpoint.source_sha256).toBe(createHash('sha256').update(source).digest('hex'));
    // An independent reading: each link's b64 field, decoded and joined in order, is the source file.
    const links = readFileSync(sealed.sealedPath, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { b64: string; offset: number });
    expect(Buffer.concat(links.map((l) => Buffer.from(l.b64, 'base64')))).toEqual(source);
    expect(links.map((l) => l.offset)).toEqual(links.map((_, i) => i * 48 * 1024));
    }

    const verdict = await verifyFile(sealed.sealedPath, 'sealed', await readCheckpoint(sealed.checkpointPath, 'checkpoint'), DEFAULT_LIMITS);
    expect(verdict.status).toBe('intact');
    expect(formatVerdict(verdict)).toContain(KINDS[path] === 'bytes' ? 'kind: bytes: a whole document' : 'kind: records: one canonical record per line');
    const ok = python(sealed.sealedPath, sealed.checkpointPath);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('chain: intact\n');

    // One byte of the first link's body changed (a letter swapped for another).
    const text = readFileSync(sealed.sealedPath, 'utf8');
    const at = text.indexOf('"', text.indexOf('"digest":"') + 76) + 4;
    writeFileSync(sealed.sealedPath, text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1));
    expect((await verifyFile(sealed.sealedPath, 'sealed', await readCheckpoint(sealed.checkpointPath, 'checkpoint'), DEFAULT_LIMITS)).status).toBe('broken');
    const bad = python(sealed.sealedPath, sealed.checkpointPath);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('chain: broken');
  });

  it('the Action seals a run of Langfuse, Inspect, OTLP and MCP traces with no warning and lists every file in the manifest', async () => {
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warning: (m: string) => void warnings.push(m) };
    const out = tempDir('ata-seal-run-');
    const inputs = [...DOCUMENTS.map((name) => ({ path: pathOf(name), display: name })), { path: 'examples/dirty/span-log-orphan.jsonl', display: 'examples/dirty/span-log-orphan.jsonl' }];
    const summary = await sealInputs(inputs, out, (path, dir, display) => sealToFolder(path, dir, DEFAULT_LIMITS, {}, display), logger);
    expect(warnings).toEqual([]);
    expect(summary.sealed).toBe(inputs.length);
    const manifest = JSON.parse(readFileSync(join(out, 'seal-manifest.json'), 'utf8')) as { files: Array<{ file: string }> };
    expect(manifest.files.map((f) => f.file)).toEqual(inputs.map((i) => i.display).sort());
  });
});
