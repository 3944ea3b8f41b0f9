import { createHash } from 'node:crypto';
import type { BoundaryRecord } from '../../model/records.js';
import type { BoundaryDigests } from './mutation-hop.js';

const HOPS = ['process', 'adapter', 'model'] as const;
type Hop = (typeof HOPS)[number];

/** A recorded figure that the saved payload contradicts. */
export interface Disagreement {
  readonly field: string;
  readonly recorded: string;
  readonly computed: string;
}

export interface ResolvedDigests {
  /** The six figures, null when one is neither recorded nor computable. */
  readonly digests: BoundaryDigests | null;
  /** Fields that are missing (`model_sha256`, `adapter_len` …). */
  readonly missing: readonly string[];
  /** Recorded hashes or lengths that disagree with the payload they describe. */
  readonly disagreements: readonly Disagreement[];
}

/**
 * The hashes and lengths of a boundary record. Where the record carries the
 * payload itself (`process_payload`, …), its UTF-8 bytes are hashed and
 * counted here, and those figures win over the recorded ones.
 */
export function resolveDigests(record: BoundaryRecord): ResolvedDigests {
  const missing: string[] = [];
  const disagreements: Disagreement[] = [];
  const hash: Partial<Record<Hop, string>> = {};
  const len: Partial<Record<Hop, number>> = {};
  for (const hop of HOPS) {
    const recordedHash = recordedHashOf(record, hop);
    const recordedLen = recordedLenOf(record, hop);
    const payload = record.payloads[hop];
    if (payload !== undefined) {
      const bytes = Buffer.from(payload, 'utf8');
      const computedHash = createHash('sha256').update(bytes).digest('hex');
      if (recordedHash !== null && recordedHash.toLowerCase() !== computedHash) {
        disagreements.push({ field: `${hop}_sha256`, recorded: recordedHash, computed: computedHash });
      }
      if (recordedLen !== null && recordedLen !== bytes.length) {
        disagreements.push({ field: `${hop}_len`, recorded: String(recordedLen), computed: String(bytes.length) });
      }
      hash[hop] = computedHash;
      len[hop] = bytes.length;
      continue;
    }
    if (recordedHash === null) missing.push(`${hop}_sha256`);
    else hash[hop] = recordedHash;
    if (recordedLen === null) missing.push(`${hop}_len`);
    else len[hop] = recordedLen;
  }
  const digests =
    missing.length === 0
      ? {
          processSha256: hash.process!,
          adapterSha256: hash.adapter!,
          modelSha256: hash.model!,
          processLen: len.process!,
          adapterLen: len.adapter!,
          modelLen: len.model!,
        }
      : null;
  return { digests, missing, disagreements };
}

function recordedHashOf(record: BoundaryRecord, hop: Hop): string | null {
  return hop === 'process' ? record.processSha256 : hop === 'adapter' ? record.adapterSha256 : record.modelSha256;
}

function recordedLenOf(record: BoundaryRecord, hop: Hop): number | null {
  return hop === 'process' ? record.processLen : hop === 'adapter' ? record.adapterLen : record.modelLen;
}
