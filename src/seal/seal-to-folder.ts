import { basename, join } from 'node:path';
import { InputError } from '../errors.js';
import type { ReadLimits } from '../io/limits.js';
import type { SealMode } from './canonical-record.js';
import type { SealKind } from './checkpoint.js';
import { sealBytes } from './seal-bytes.js';
import { fileSink, sealFile } from './seal-file.js';
import type { UnsealedLine } from './unsealed-lines.js';

export interface SealedInFolder {
  readonly sealedPath: string;
  readonly checkpointPath: string;
  readonly finalDigest: string;
  readonly mode: SealMode;
  readonly kind: SealKind;
  /** Lines of a records seal left out of the chain (listed in the checkpoint too); empty for bytes. */
  readonly unsealedLines: readonly UnsealedLine[];
}

/**
 * Seals one trace into `outDir` as `<name>.sealed.jsonl` with its checkpoint
 * beside it. JCS first; a record JCS cannot represent exactly (integers past
 * 2^53, as OpenTelemetry nanosecond timestamps are) is sealed in the Python
 * form instead, which the checkpoint records. A JSON Lines file with some
 * lines that are not records (up to MAX_UNSEALED_LINES) has its records sealed
 * and those lines listed in the checkpoint (`unsealed_lines`). A file that is
 * not one record per line (a JSON document, an .eval archive, a YAML cassette,
 * a file whose first line is not a record) is sealed as a chain over its bytes
 * (`"kind": "bytes"`), so every collected file is sealed. Only a file that
 * cannot be read or written is the seal error.
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
    const checkpoint = await sealFile({ path, display, sink, checkpointPath, checkpointDisplay: `${display}.sealed.jsonl.seal.json`, mode, limits, env, unsealable: { firstLineMustSeal: true } });
    return { sealedPath, checkpointPath, finalDigest: checkpoint.final_digest, mode, kind: 'records' as const, unsealedLines: checkpoint.unsealed_lines ?? [] };
  };
  const asBytes = async () => {
    const sink = await fileSink(sealedPath, `${display}.sealed.jsonl`);
    const checkpoint = await sealBytes({ path, display, sink, checkpointPath, checkpointDisplay: `${display}.sealed.jsonl.seal.json`, maxBytes: limits.maxDocumentBytes, env });
    return { sealedPath, checkpointPath, finalDigest: checkpoint.final_digest, mode: 'jcs' as const, kind: 'bytes' as const, unsealedLines: [] };
  };
  // Not one record per line (a JSON document, an archive, a YAML file, too many lines that are not records): sealed as bytes.
  const notRecords = (error: unknown) => error instanceof InputError && error.code !== 'unreadable' && error.code !== 'unwritable';
  try {
    return await attempt('jcs');
  } catch (error) {
    if (!notRecords(error)) throw error;
    if (error instanceof InputError && error.code === 'seal-unrepresentable') {
      try {
        return await attempt('python');
      } catch (again) {
        if (!notRecords(again)) throw again;
      }
    }
    return asBytes();
  }
}
