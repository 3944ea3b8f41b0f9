/**
 * The one sanitizer for text taken from a trace: every renderer, log line and
 * error message shows trace text only after it passed through `sanitizeText`.
 * It redacts secrets, removes control, ANSI, bidi and zero-width characters,
 * and caps the length. Escaping for a medium (markdown, HTML) is the renderer's job.
 */
import { redactSecrets } from './secrets.js';

export const DEFAULT_MAX_CHARS = 200;

// C0 controls but tab, newline and carriage return; DEL; C1 controls.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// ANSI/VT escape sequences (CSI, OSC, and two-byte escapes).
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
// Bidi embeddings, overrides and isolates; zero-width and invisible formatting characters.
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u00ad\u180e]/g;

// The Actions runner reads `##[command]` anywhere in a log line (the old command form); the
// second `#` becomes a full-width one, so CI logs of our output never carry a trace's command.
// (The `::command::` form only counts at the start of a line, where trace text never stands.)
const WORKFLOW_COMMAND_V1 = /##\[/g;

export interface SanitizeOptions {
  /** Cap on the result's length in characters (an ellipsis marks a cut); at least 40, room for any marker. */
  readonly maxChars?: number;
  /** Keep newlines (for multi-line excerpts); otherwise they become spaces. */
  readonly keepNewlines?: boolean;
}

/**
 * Order matters: escapes are decoded and invisible characters removed before
 * secrets are looked for (so `gh\u200bp_…` or `\u0067hp_…` cannot slip past),
 * and the cap comes last and never cuts a marker or a surrogate pair in half.
 */
export function sanitizeText(whole: string, options: SanitizeOptions = {}): string {
  const max = Math.max(options.maxChars ?? DEFAULT_MAX_CHARS, MIN_CAP);
  // Only a window of a long text is read: enough raw characters for `max` shown ones plus
  // room for a secret that starts before the cut to be recognized whole (an escape is at
  // most 6 characters for 1). A huge text costs no more than its window.
  const window = (max + SECRET_ROOM) * 6;
  const text = whole.length > window ? whole.slice(0, window) : whole;
  let out: string;
  if (PLAIN.test(text)) {
    // Printable ASCII without a backslash (most messages, file names, ids): no escape
    // to decode, no control, ANSI, invisible, surrogate or line-break character to
    // remove, so those passes would change nothing.
    out = redactSecrets(text);
  } else {
    out = decodeJsonEscapes(text);
    out = out.replace(ANSI, '').replace(INVISIBLE, '').replace(CONTROL, '');
    out = stripLoneSurrogates(out);
    out = redactSecrets(out);
  }
  out = out.replace(WORKFLOW_COMMAND_V1, '#\uff03[');
  out = options.keepNewlines ? out.replace(/\r\n?/g, '\n').replace(/\t/g, ' ') : out.replace(/[\r\n\t]+/g, ' ');
  if (out.length > max) {
    while (out.length > max) out = redactSecrets(cut(out, max));
  } else if (text !== whole) {
    // The window left fewer than `max` characters (the rest was removed): still a cut text.
    out = out.length < max ? `${out}…` : cut(out, max);
  }
  return out;
}

/** Printable ASCII but the backslash: text the escape, control and invisible passes leave as it is. */
const PLAIN = /^[\x20-\x5b\x5d-\x7e]*$/;

/** Characters read past the cap, so a secret cut by it is still recognized (a PEM key runs to the window's end). */
const SECRET_ROOM = 4096;

/** Enough room for the longest marker and an ellipsis. */
const MIN_CAP = 40;

/** The first `max - 1` characters and an ellipsis, backing off a marker or surrogate pair that would be split. */
function cut(text: string, max: number): string {
  let end = max - 1;
  if (/[\ud800-\udbff]/.test(text[end - 1] ?? '')) end -= 1;
  const open = text.lastIndexOf('[REDACTED:', end - 1);
  if (open !== -1) {
    const close = text.indexOf(']', open);
    if (close >= end) end = open;
  }
  return `${text.slice(0, end)}…`;
}

/**
 * Decodes JSON escapes until none is left, in one pass: a decoded character is
 * appended to the output and the output's end is decoded again while it ends in an
 * escape (`\u005cu0041` is `\u0041` is `A`). Each decoding shortens the output, so
 * the work is linear (rounds over the whole text were quadratic on nested escapes).
 */
function decodeJsonEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 1) {
    out.push(text[i]!);
    for (;;) {
      const n = out.length;
      if (n >= 2 && out[n - 2] === '\\' && out[n - 1] === '/') {
        out.length = n - 2;
        out.push('/');
        continue;
      }
      if (n >= 6 && out[n - 6] === '\\' && out[n - 5] === 'u') {
        const hex = out[n - 4]! + out[n - 3]! + out[n - 2]! + out[n - 1]!;
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          out.length = n - 6;
          out.push(String.fromCharCode(parseInt(hex, 16)));
          continue;
        }
      }
      break;
    }
  }
  return out.join('');
}

function stripLoneSurrogates(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
