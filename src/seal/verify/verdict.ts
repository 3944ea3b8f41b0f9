import { sanitizeText } from '../../sanitize/text.js';
import type { Checkpoint } from '../checkpoint.js';
import type { BrokenLink, ChainResult } from './verify.js';

export type VerdictStatus = 'intact' | 'broken' | 'truncated' | 'appended' | 'swapped';

/** The answer of `verify`: the chain walk, judged against the checkpoint when there is one. */
export interface Verdict {
  readonly status: VerdictStatus;
  readonly chain: ChainResult;
  /** SHA-256 of the sealed file's bytes as read. */
  readonly sealedSha256: string;
  readonly checkpoint: Checkpoint | null;
  /** For 'broken': the first link that does not hold. */
  readonly broken: BrokenLink | null;
  /** For 'swapped': what differs from the checkpoint, and the two values compared. */
  readonly reason: string | null;
  readonly expected: string | null;
  readonly found: string | null;
}

/** Exit code of `verify`: 0 only for an intact chain (that matches its checkpoint, if given). */
export function verdictExitCode(verdict: Verdict): 0 | 1 {
  return verdict.status === 'intact' ? 0 : 1;
}

/**
 * Judges a chain walk. Without a checkpoint only edits inside the chain can be
 * seen. With one: fewer records than it says is a cut tail; more records whose
 * first part ends on its final digest is lines appended (valid links or not); a
 * chain that ends elsewhere, or whose bytes differ from the sealed file's hash,
 * is another file swapped in.
 */
export function judge(chain: ChainResult, sealedSha256: string, checkpoint: Checkpoint | null): Verdict {
  const base = { chain, sealedSha256, checkpoint, broken: null, reason: null, expected: null, found: null };
  if (checkpoint === null) return chain.broken ? { ...base, status: 'broken', broken: chain.broken } : { ...base, status: 'intact' };
  const expected = checkpoint.records;
  const prefixMatches = chain.markDigest === checkpoint.final_digest;
  if (chain.broken) {
    if (chain.broken.index >= expected && prefixMatches) return { ...base, status: 'appended' };
    return { ...base, status: 'broken', broken: chain.broken };
  }
  if (chain.intact < expected) return { ...base, status: 'truncated' };
  if (chain.intact > expected) {
    if (prefixMatches) return { ...base, status: 'appended' };
    const reason = `the digest after ${expected} record(s) is not the checkpoint's final digest`;
    return { ...base, status: 'swapped', reason, expected: checkpoint.final_digest, found: chain.markDigest };
  }
  if (chain.finalDigest !== checkpoint.final_digest) {
    return { ...base, status: 'swapped', reason: "the final digest is not the checkpoint's", expected: checkpoint.final_digest, found: chain.finalDigest };
  }
  if (sealedSha256 !== checkpoint.sealed_sha256) {
    return { ...base, status: 'swapped', reason: "the file's SHA-256 is not the checkpoint's sealed_sha256", expected: checkpoint.sealed_sha256, found: sealedSha256 };
  }
  return { ...base, status: 'intact' };
}

/**
 * The lines the checkpoint says were left out of the chain: one line each, the
 * reason sanitized (the checkpoint is as untrusted as the sealed file).
 */
export function unsealedLines(checkpoint: Pick<Checkpoint, 'unsealed_lines'>): string[] {
  const lines = checkpoint.unsealed_lines ?? [];
  if (lines.length === 0) return [];
  return [
    `unsealed: ${lines.length} line(s) of the source are not records and are not in the chain (source_sha256 covers every byte of the source)`,
    ...lines.map((u) => `unsealed line ${u.line}: ${sanitizeText(u.reason, { maxChars: 200 })}`),
  ];
}

/** The report `verify` prints: line-oriented, deterministic, no timestamps. */
export function formatVerdict(verdict: Verdict): string {
  const { chain, checkpoint } = verdict;
  const out: string[] = [`chain: ${verdict.status}`];
  switch (verdict.status) {
    case 'broken': {
      const b = verdict.broken!;
      out.push(`first broken link: index ${b.index}`, `expected: ${b.expected}`, `found: ${b.found ?? 'none'}`, `reason: ${b.reason}`);
      break;
    }
    case 'intact':
      out.push(`records: ${chain.intact}`, `final digest: ${chain.finalDigest}`);
      break;
    case 'truncated':
      out.push(
        `records: expected ${checkpoint!.records}, found ${chain.intact}`,
        `reason: the last ${checkpoint!.records - chain.intact} record(s) of the sealed chain are missing; the ${chain.intact} present are intact`,
      );
      break;
    case 'appended':
      out.push(
        `records: expected ${checkpoint!.records}, found ${chain.lines}`,
        `first appended link: index ${checkpoint!.records}`,
        `reason: the first ${checkpoint!.records} record(s) match the checkpoint; ${chain.lines - checkpoint!.records} line(s) were added after them`,
      );
      break;
    case 'swapped':
      out.push(
        `records: expected ${checkpoint!.records}, found ${chain.intact}`,
        `expected: ${verdict.expected}`,
        `found: ${verdict.found ?? 'none'}`,
        `reason: ${verdict.reason}: this is not the file the checkpoint was made for`,
      );
      break;
  }
  if (checkpoint === null) {
    out.push('note: no checkpoint given, so lines cut from the end of the file cannot be ruled out (pass --checkpoint <file>.seal.json)');
  } else {
    out.push(`checkpoint: ${checkpoint.canonical} form, ${checkpoint.records} record(s)${verdict.status === 'intact' ? ', matches' : ''}`);
    // A whole document (JSON, .eval, YAML) is sealed as its bytes; records checkpoints say nothing more (their output is unchanged).
    if (checkpoint.kind === 'bytes') out.push('kind: bytes: a whole document, each link a base64 chunk of its bytes (joined, they are the source file: source_sha256)');
    else out.push('kind: records: one canonical record per line of the trace');
    out.push(...unsealedLines(checkpoint));
    const receipts = checkpoint.redactions?.length ?? 0;
    if (receipts > 0) out.push(`redactions: ${receipts} value(s) replaced before sealing (receipts in the checkpoint)`);
    const gh = checkpoint.github;
    if (gh) out.push(`sealed in: GitHub Actions${gh.repository ? ` ${gh.repository}` : ''}${gh.commit ? ` at ${gh.commit}` : ''}${gh.run_id ? `, run ${gh.run_id}` : ''}${gh.run_attempt ? ` attempt ${gh.run_attempt}` : ''}`);
  }
  return `${out.join('\n')}\n`;
}
