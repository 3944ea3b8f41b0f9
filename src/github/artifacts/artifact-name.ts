import { nameId } from '../../report/verdict/title.js';
import { createHash } from 'node:crypto';

/**
 * A stable, readable id for a shard: `${{ toJson(matrix) }}` or any string.
 * JSON objects are reduced to their values in key order; everything outside
 * [A-Za-z0-9._-] becomes '-'; a short hash of the original keeps two shards
 * that sanitize alike apart.
 */
export function shardId(shard: string): string {
  const raw = shard.trim();
  if (raw === '') return '';
  let readable = raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      readable = Object.keys(record)
        .sort()
        .map((key) => (typeof record[key] === 'object' ? JSON.stringify(record[key]) : String(record[key])))
        .join('-');
    }
  } catch {
    // not JSON: used as it is
  }
  const slug = readable.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 60);
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return slug === '' ? hash : `${slug}-${hash}`;
}

/** The artifact name: the base name, plus the `name` input's id and the shard id when there are. Valid for @actions/artifact. */
export function artifactNameFor(base: string, shard: string, name = ''): string {
  const clean = base.replace(/["':<>|*?\\/\r\n]+/g, '-');
  return [clean, nameId(name), shardId(shard)].filter((part) => part !== '').join('-');
}

/** What shardId() gives: a slug and 8 hex digits of a hash, or the hash alone. */
const SHARD_ID = /^(?:[A-Za-z0-9._-]+-)?[0-9a-f]{8}$/;

/**
 * The report artifacts of one suite among a run's artifacts: `base` itself
 * (artifactNameFor without a shard: an unsharded or merged report) and its
 * shards `<base>-<shard id>`. Not another suite's `<base>-<name>` (the `name`
 * input), whose findings are not this suite's.
 */
export function suiteReports<T extends { readonly name: string }>(artifacts: readonly T[], base: string): T[] {
  return artifacts.filter((a) => a.name === base || (a.name.startsWith(`${base}-`) && SHARD_ID.test(a.name.slice(base.length + 1))));
}

/** ` name=<id> shard=<id>`: what tells one workflow's (and one shard's) comment and check run from another's. */
function keyOf(shard: string, name: string): string {
  const n = nameId(name);
  const id = shardId(shard);
  return `${n === '' ? '' : ` name=${n}`}${id === '' ? '' : ` shard=${id}`}`;
}

/** The hidden marker that identifies our comment (one per `name` and shard key). */
export function commentMarker(shard: string, name = ''): string {
  return `<!-- agent-trace-audit:comment${keyOf(shard, name)} -->`;
}

/** The check run's name and the marker that finds it again: one per `name` and shard key. */
export function checkRunIdentity(shard: string, name = ''): { name: string; marker: string } {
  const parts = [nameId(name), shardId(shard)].filter((part) => part !== '');
  return { name: parts.length === 0 ? 'agent-trace-audit' : `agent-trace-audit (${parts.join(', ')})`, marker: `agent-trace-audit:check${keyOf(shard, name)}` };
}
