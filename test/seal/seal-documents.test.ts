import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sealInputs } from '../../src/action/seal-step.js';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { silentLogger, type Logger } from '../../src/logger.js';
import { formatVerdict, readCheckpoint, sealToFolder, verifyFile } from '../../src/seal/index.js';
import { tempDir } from '../helpers.js';

// Whole-document traces (Langfuse, Inspect JSON and .eval, MCP, a YAML cassette) are sealed as a chain over
// their bytes; an OTLP export on one line is one record, and a JSONL file with lines that are not objects has
// its records sealed (those lines are listed in the checkpoint: test/hostile/unsealed-lines.test.ts).
const KINDS: Record<string, 'bytes' | 'records'> = {
  'test/fixtures/corpus/langfuse/pydantic-ai-tools.trace.json': 'bytes',
  'test/fixtures/corpus/inspect/log_tool_call_error.json': 'bytes',
  'test/fixtures/corpus/inspect/log_message_deduplication.eval': 'bytes',
  'test/fixtures/corpus/otlp/agentevals-tempo-batches.json': 'records',
  'test/fixtures/corpus/mcp/call-tool-request.json': 'bytes',
  'test/fixtures/corpus/openai-chat/otel-contrib-tool-calls-cassette.yaml': 'bytes',
  'test/hostile/fixtures/non-object-lines.jsonl': 'records',
};
const DOCUMENTS = Object.keys(KINDS);

const python = (sealed: string, checkpoint: string) => spawnSync('python3', ['docs/verify_sealed.py', sealed, checkpoint], { encoding: 'utf8' });

describe('sealing whole documents as bytes', () => {
  it.each(DOCUMENTS)('%s: sealed, the chunks are the file byte for byte, verify and the Python verifier accept it and catch a one-byte change', async (path) => {
    const out = tempDir('ata-seal-doc-');
    const sealed = await sealToFolder(path, out, DEFAULT_LIMITS, {}, path);
    expect(sealed.kind).toBe(KINDS[path]);
    const source = readFileSync(path);
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
    const inputs = [...DOCUMENTS, 'examples/dirty/span-log-orphan.jsonl'].map((path) => ({ path, display: path }));
    const summary = await sealInputs(inputs, out, (path, dir, display) => sealToFolder(path, dir, DEFAULT_LIMITS, {}, display), logger);
    expect(warnings).toEqual([]);
    expect(summary.sealed).toBe(inputs.length);
    const manifest = JSON.parse(readFileSync(join(out, 'seal-manifest.json'), 'utf8')) as { files: Array<{ file: string }> };
    expect(manifest.files.map((f) => f.file)).toEqual(inputs.map((i) => i.display).sort());
  });
});
