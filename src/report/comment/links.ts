import type { Finding } from '../../model/finding.js';
import { codeSpan } from '../render/markdown-escape.js';
import { locationOf } from '../triage.js';

/** Where a finding's file can be opened on GitHub. */
export interface FileLinks {
  /** `<server>/<owner>/<repo>/blob/<head sha>`: files in the repository link to their line here; '' for none. */
  readonly blobBase: string;
  /**
   * The files committed at the head commit, as the report names them (the
   * workspace's git index): only these are linked. A file read from an
   * artifact, written during the run, or a member of an archive is not in it;
   * empty when there is no checkout, so nothing is linked.
   */
  readonly tracked: ReadonlySet<string>;
}

export const NO_FILE_LINKS: FileLinks = { blobBase: '', tracked: new Set() };

/**
 * `file:line` as a code span, linked to the file at the head commit
 * (`…/blob/<sha>/<path>#L<n>`) only when the file is tracked there: a link
 * that resolves or none. The URL is built from our own base and the path
 * percent-encoded segment by segment; a path that could climb out of the
 * repository (`..`, absolute, backslashes) is never linked.
 */
export function locationLink(finding: Finding, links: FileLinks, inTable = false): string {
  const text = codeSpan(locationOf(finding), inTable);
  if (links.blobBase === '' || !links.tracked.has(finding.file)) return text;
  const path = repositoryPath(finding.file);
  if (path === null) return text;
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
