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

/** The artifact name: the base name, plus the shard id when there is one. Valid for @actions/artifact. */
export function artifactNameFor(base: string, shard: string): string {
  const clean = base.replace(/["':<>|*?\\/\r\n]+/g, '-');
  const id = shardId(shard);
  return id === '' ? clean : `${clean}-${id}`;
}

/** The hidden marker that identifies our comment (one per shard key). */
export function commentMarker(shard: string): string {
  const id = shardId(shard);
  return `<!-- agent-trace-audit:comment${id === '' ? '' : ` shard=${id}`} -->`;
}
