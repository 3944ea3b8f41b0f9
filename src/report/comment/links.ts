import type { Finding } from '../../model/finding.js';
import { codeSpan } from '../markdown-escape.js';
import { locationOf } from '../triage.js';

/** Where a finding's file can be opened on GitHub. */
export interface FileLinks {
  /** `<server>/<owner>/<repo>/blob/<head sha>`: files in the repository link to their line here; '' for none. */
  readonly blobBase: string;
  /** Artifact name → its page, for files read from an artifact (their path starts with `<name>/`). */
  readonly artifacts: ReadonlyMap<string, string>;
}

export const NO_FILE_LINKS: FileLinks = { blobBase: '', artifacts: new Map() };

/**
 * `file:line` as a code span, linked to the file at the head commit
 * (`…/blob/<sha>/<path>#L<n>`), or to the artifact it was read from. The
 * URL is built from our own base and the path percent-encoded segment by
 * segment; a path that could climb out of the repository (`..`, absolute,
 * backslashes) is shown unlinked.
 */
export function locationLink(finding: Finding, links: FileLinks, inTable = false): string {
  const text = codeSpan(locationOf(finding), inTable);
  const slash = finding.file.indexOf('/');
  if (slash > 0) {
    const artifact = links.artifacts.get(finding.file.slice(0, slash));
    if (artifact !== undefined) return `[${text}](${artifact})`;
  }
  const path = repositoryPath(finding.file);
  if (links.blobBase === '' || path === null) return text;
  return `[${text}](${links.blobBase}/${path}${finding.line > 0 ? `#L${finding.line}` : ''})`;
}

function repositoryPath(file: string): string | null {
  if (file === '' || file.startsWith('/') || file.includes('\\') || /^[A-Za-z]:/.test(file)) return null;
  const segments = file.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  return segments.map(encodeSegment).join('/');
}

/** encodeURIComponent plus the characters markdown gives a meaning in a link destination. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
