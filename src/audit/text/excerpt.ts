import { stringsOf } from '../walk-strings.js';

/** Fields that hold the human text of a body (preferred over `type: "text"` and the like). */
const TEXT_FIELD = /(?:^|[.\]>])(?:text|message|msg|error|detail|description|reason)$/i;

/**
 * A short quote of a result's body for a finding message: the first line of its
 * message-like string (or else its first non-blank string), cut at `max`
 * characters (the engine sanitizes it).
 */
export function bodyExcerpt(content: unknown, max = 80): string | null {
  const found = stringsOf(content).filter(({ text }) => text.trim() !== '');
  const pick = found.find(({ path }) => path === '' || TEXT_FIELD.test(path)) ?? found[0];
  if (!pick) return null;
  const line = pick.text.trim().split(/\r?\n/, 1)[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
