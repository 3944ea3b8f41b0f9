import { createHash } from 'node:crypto';

/**
 * The `name` input as an id: [A-Za-z0-9._-] only (safe in an HTML comment, a
 * check-run name, a heading and an artifact name), at most 40 characters; a
 * name that had to change keeps a short hash of the original, so `a b` and
 * `a-b` stay two names. '' for none.
 */
export function nameId(name: string): string {
  const raw = name.trim();
  if (raw === '') return '';
  const slug = raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-{2,}/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 40);
  if (slug === raw) return slug;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return slug === '' ? hash : `${slug}-${hash}`;
}

/** The title of the comment, the job summary and the check run: `agent-trace-audit`, or `agent-trace-audit (<name>)`. */
export function auditTitle(name: string): string {
  const id = nameId(name);
  return id === '' ? 'agent-trace-audit' : `agent-trace-audit (${id})`;
}
