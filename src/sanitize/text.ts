/**
 * The one sanitizer for text taken from a trace: every renderer, log line and
 * error message shows trace text only after it passed through `sanitizeText`.
 * It redacts secrets, removes control, ANSI, bidi and zero-width characters,
 * and caps the length. Escaping for a medium (markdown, HTML) is the renderer's job.
 */
import { redactSecrets } from './secrets.js';

export const DEFAULT_MAX_CHARS = 200;

// C0 controls but tab, DEL, C1 controls.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// ANSI/VT escape sequences (CSI, OSC, and two-byte escapes).
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
// Bidi embeddings, overrides and isolates; zero-width and invisible formatting characters.
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u00ad\u180e]/g;

export interface SanitizeOptions {
  /** Cap on the result's length in characters (an ellipsis marks a cut). */
  readonly maxChars?: number;
  /** Keep newlines (for multi-line excerpts); otherwise they become spaces. */
  readonly keepNewlines?: boolean;
}

export function sanitizeText(text: string, options: SanitizeOptions = {}): string {
  const max = options.maxChars ?? DEFAULT_MAX_CHARS;
  let out = redactSecrets(text);
  out = out.replace(ANSI, '').replace(INVISIBLE, '');
  out = options.keepNewlines ? out.replace(/\r\n?/g, '\n').replace(/\t/g, ' ') : out.replace(/[\r\n\t]+/g, ' ');
  out = out.replace(CONTROL, (c) => (options.keepNewlines && c === '\n' ? c : ''));
  out = stripLoneSurrogates(out);
  if (out.length > max) {
    let cut = max - 1;
    // Never cut a surrogate pair or a redaction marker in half.
    if (/[\ud800-\udbff]/.test(out[cut - 1] ?? '')) cut -= 1;
    const open = out.lastIndexOf('[REDACTED', cut);
    if (open !== -1 && out.indexOf(']', open) >= cut) cut = open;
    out = `${out.slice(0, cut)}…`;
  }
  return out;
}

function stripLoneSurrogates(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
