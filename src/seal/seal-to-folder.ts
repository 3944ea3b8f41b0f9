import { basename, join } from 'node:path';
import { InputError } from '../errors.js';
import type { ReadLimits } from '../io/limits.js';
import type { SealMode } from './canonical-record.js';
import { fileSink, sealFile } from './seal-file.js';

export interface SealedInFolder {
  readonly sealedPath: string;
  readonly checkpointPath: string;
  readonly finalDigest: string;
  readonly mode: SealMode;
}

/**
 * Seals one trace into `outDir` as `<name>.sealed.jsonl` with its checkpoint
 * beside it. JCS first; a record JCS cannot represent exactly (integers past
 * 2^53, as OpenTelemetry nanosecond timestamps are) is sealed in the Python
 * form instead, which the checkpoint records. Anything else is the seal error.
 */
export async function sealToFolder(
  path: string,
  outDir: string,
  limits: ReadLimits,
  env: Readonly<Record<string, string | undefined>>,
  display = basename(path),
): Promise<SealedInFolder> {
  const name = basename(path).replace(/\.gz$/i, '').replace(/\.(jsonl|ndjson|json)$/i, '');
  const sealedPath = join(outDir, `${name}.sealed.jsonl`);
  const checkpointPath = `${sealedPath}.seal.json`;
  const attempt = async (mode: SealMode) => {
    const sink = await fileSink(sealedPath, `${display}.sealed.jsonl`);
    const checkpoint = await sealFile({ path, display, sink, checkpointPath, checkpointDisplay: `${display}.sealed.jsonl.seal.json`, mode, limits, env });
    return { sealedPath, checkpointPath, finalDigest: checkpoint.final_digest, mode };
  };
  try {
    return await attempt('jcs');
  } catch (error) {
    if (error instanceof InputError && error.code === 'seal-unrepresentable') return attempt('python');
    throw error;
  }
}
