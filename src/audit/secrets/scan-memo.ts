import { mayHoldSecret, SHORTEST_SECRET } from '../../sanitize/prefilter.js';
import { scanSecrets, type SecretMatch } from '../../sanitize/secrets.js';
import { Memo } from '../held/memo.js';

/**
 * The secrets of one string of a trace, for secret-in-trace. Most strings are settled
 * by the prefilter; of the others, the short ones (session ids, paths, URLs, header
 * values) recur on every record, so each distinct one is scanned once per audit.
 */

/** Longest text whose scan is remembered: 4,096 of them hold at most 2 MiB. */
const MEMO_MAX_CHARS = 256;
const scans = new Memo<string, readonly SecretMatch[]>(4096, (text) => scanSecrets(text).found);
const NONE: readonly SecretMatch[] = [];

/** What `scanSecrets(text).found` holds (the same secrets, in the same order). */
export function secretsIn(text: string): readonly SecretMatch[] {
  if (text.length < SHORTEST_SECRET || !mayHoldSecret(text)) return NONE;
  return text.length <= MEMO_MAX_CHARS ? scans.get(text) : scanSecrets(text).found;
}
