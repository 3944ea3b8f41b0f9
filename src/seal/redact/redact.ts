import { isPlaceholder, isSensitiveKey, lastKeyOf } from '../../audit/secrets/sensitive-keys.js';
import { forEachString } from '../../audit/facts/walk-strings.js';
import { decodedView } from '../../sanitize/decoded-view.js';
import { mayHoldSecret } from '../../sanitize/prefilter.js';
import { scanSecrets, type SecretMatch } from '../../sanitize/secrets.js';

/** One value replaced in a line: the detector rule, its UTF-8 length, its token, and the JSON path once known. */
export interface Replacement {
  readonly ruleId: string;
  readonly originalLen: number;
  readonly token: string;
  fieldPath: string | null;
}

/** A marker the detectors write (`[REDACTED:<rule>]`), and the numbered token this module writes in its place. */
const MARKER = /\[REDACTED:([a-z0-9-]+)\]/g;
const TOKEN = /\[REDACTED:[a-z0-9-]+:[1-9][0-9]*\]/g;
/** A superset of the words isSensitiveKey looks for in a field name (src/audit/secrets/sensitive-keys.ts). */
const SENSITIVE_WORD = /pass|pwd|secret|token|api|authori[sz]ation|cookie|credential|private|access|session|signing|auth/i;
const HAS_TOKEN = /\[REDACTED:[a-z0-9-]+:[1-9][0-9]*\]/;

/**
 * Replaces, line by line, every secret the audit's detectors find (the
 * secret patterns of src/sanitize/secrets.ts and the sensitive field names of
 * src/audit/secrets/) with `[REDACTED:<rule>:<n>]`, n counting from 1 over the
 * whole file, so each token names one replaced value. Nothing of the original
 * value is kept but its length in UTF-8 bytes.
 */
export class Redactor {
  private count = 0;

  /**
   * One unit of a trace (a JSON Lines record, a whole JSON document, or any
   * other line) with its secrets replaced, and one Replacement per value. A
   * unit that is JSON is read as the audit reads it: each string (and key
   * path) scanned on its own, a sensitive field's value when no pattern
   * matched, so the rule ids are the audit's; the value is replaced where its
   * JSON form stands in the text. Then the patterns run over the text itself,
   * for anything the first pass could not place.
   */
  line(text: string): { text: string; hits: Replacement[] } {
    const hits: Replacement[] = [];
    // Most lines hold neither a pattern's text (plain or escaped) nor a sensitive field's name: settled without parsing.
    if (!mayHoldSecret(text) && !SENSITIVE_WORD.test(text)) return { text, hits };
    const json = parseJson(text);
    let out = json === undefined ? text : this.jsonValues(text, json, hits);
    const scan = scanSecrets(out);
    if (scan.text !== out) {
      const before = hits.length;
      out = this.numbered(out, scan.text, scan.found, hits);
      if (hits.length > before && json !== undefined) locate(parseJson(out), hits);
    }
    return { text: out, hits };
  }

  private next(ruleId: string, original: string, hits: Replacement[], fieldPath: string | null = null): string {
    this.count += 1;
    const token = `[REDACTED:${ruleId}:${this.count}]`;
    hits.push({ ruleId, originalLen: Buffer.byteLength(original, 'utf8'), token, fieldPath });
    return token;
  }

  /**
   * Numbers the markers the scan wrote into `redacted`, aligning it with the
   * original to learn each replaced value's length: the text between markers is
   * the original's, a marker already in the original stays as it was.
   */
  private numbered(original: string, redacted: string, found: readonly SecretMatch[], hits: Replacement[]): string {
    const parts = redacted.split(MARKER); // literal, rule, literal, rule, …, literal
    let at = 0;
    let out = '';
    for (let i = 0; i < parts.length; i += 2) {
      const literal = parts[i]!;
      at += literal.length;
      out += literal;
      if (i + 1 >= parts.length) break;
      const ruleId = parts[i + 1]!;
      const marker = `[REDACTED:${ruleId}]`;
      if (original.startsWith(marker, at)) {
        out += marker;
        at += marker.length;
        continue;
      }
      const end = secretEnd(original, at, ruleId, found, parts[i + 2]!, i + 2 === parts.length - 1);
      // A match that begins inside an escape (the raw text read plainly) takes the whole escape, so the JSON stays whole.
      const start = escapeStart(original, at);
      out = out.slice(0, out.length - (at - start));
      out += this.next(ruleId, original.slice(start, end), hits);
      at = end;
    }
    return out;
  }

  /**
   * The secrets of a JSON unit's strings, as secret-in-trace finds them: the
   * patterns on each string and key path, and a sensitive field's value when
   * no pattern matched. Each is replaced where its JSON form stands in `text`.
   */
  private jsonValues(text: string, json: unknown, hits: Replacement[]): string {
    let out = text;
    const replace = (path: string, ruleId: string, secret: string, whole = false) => {
      if (secret === '') return;
      const depth = path.split('<json>').length - 1;
      const encoded = encodedAt(secret, depth, whole);
      const quotes = whole ? encodedAt('', depth, true) : '';
      const quote = quotes.slice(0, quotes.length / 2);
      let token: string | null = null;
      const tokenOf = () => (token ??= `${quote}${this.next(ruleId, secret, hits, path === '' ? '$' : path)}${quote}`);
      out = replaceValue(out, encoded, whole ? `"${secret}"` : secret, tokenOf);
    };
    forEachString(json, (path, value) => {
      if (path !== '' && mayHoldSecret(path)) for (const hit of scanSecrets(path).found) replace(path, hit.ruleId, hit.secret);
      if (HAS_TOKEN.test(value)) return;
      const found = scanSecrets(value).found;
      // JSON text in a string: its secrets are replaced where the walk reads that JSON (plain or escaped).
      if (parseJson(value) === undefined) for (const hit of found) replace(path, hit.ruleId, hit.secret);
      const field = path === '' ? null : lastKeyOf(path);
      if (found.length === 0 && field !== null && isSensitiveKey(field) && !isPlaceholder(value)) replace(path, 'sensitive-field', value, true);
    });
    return out;
  }
}

/**
 * How `value` stands in the text of a unit, `depth` JSON strings down: escaped
 * as JSON escapes it once per level (a whole string value with its quotes, so
 * that the same characters inside another string are not taken for it).
 */
function encodedAt(value: string, depth: number, whole = false): string {
  let encoded = whole ? JSON.stringify(value) : JSON.stringify(value).slice(1, -1);
  for (let d = depth; d > 0; d -= 1) encoded = JSON.stringify(encoded).slice(1, -1);
  return encoded;
}

/**
 * `text` with each stretch that stands for a value replaced by `token()`: its JSON form
 * (`encoded`) where it starts and ends on whole characters (not the `9` that ends `\u0039`);
 * when there is none, the value written with other escapes than JSON.stringify writes
 * (`\/`, `\u0041KIA…`), found as `needle` in the text's decoded view.
 */
function replaceValue(text: string, encoded: string, needle: string, token: () => string): string {
  const view = decodedView(text);
  const starts = view === null ? null : new Uint8Array(text.length + 1);
  if (view !== null) for (const at of view.from) starts![at] = 1;
  const spans: Array<[number, number]> = [];
  for (let k = text.indexOf(encoded); k !== -1; k = text.indexOf(encoded, k + 1)) {
    const end = k + encoded.length;
    if ((starts === null || (starts[k] === 1 && starts[end] === 1)) && (spans.length === 0 || spans[spans.length - 1]![1] <= k)) spans.push([k, end]);
  }
  if (spans.length === 0 && view !== null) {
    for (let k = view.text.indexOf(needle); k !== -1; k = view.text.indexOf(needle, k + needle.length)) spans.push([view.from[k]!, view.from[k + needle.length]!]);
  }
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at) continue;
    out += text.slice(at, start) + token();
    at = end;
  }
  return spans.length === 0 ? text : out + text.slice(at);
}

/** The start of the JSON escape `at` falls inside (a match that begins in the `e` of `\u002e`, or the `n` of `\n`), else `at`. */
function escapeStart(text: string, at: number): number {
  const escaped = (s: number) => {
    let n = 0;
    while (s - n - 1 >= 0 && text[s - n - 1] === '\\') n += 1;
    return n % 2 === 0;
  };
  for (let s = at - 1; s >= Math.max(0, at - 5); s -= 1) {
    if (text[s] === '\\' && text[s + 1] === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(s + 2, s + 6)) && escaped(s)) return s;
  }
  return at >= 1 && text[at - 1] === '\\' && escaped(at - 1) ? at - 1 : at;
}

/** Where the value replaced at `at` ends in the original: the detector's own match when it says, else the next literal. */
function secretEnd(original: string, at: number, ruleId: string, found: readonly SecretMatch[], nextLiteral: string, last: boolean): number {
  let best = -1;
  for (const hit of found) if (hit.ruleId === ruleId && hit.secret.length > best && original.startsWith(hit.secret, at)) best = hit.secret.length;
  if (best >= 0) return at + best;
  if (last) return Math.max(at, original.length - nextLiteral.length);
  if (nextLiteral === '') return Math.min(original.length, at + 1);
  const next = original.indexOf(nextLiteral, at + 1);
  return next === -1 ? original.length : next;
}

/** The line as JSON (an object or array), or undefined. */
function parseJson(text: string): unknown {
  const head = text.trimStart()[0];
  if (head !== '{' && head !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sets the field path of each replacement that has none: the path of the
 * innermost string that holds its token (a JSON string inside a string is
 * visited after the string, so the last visit wins).
 */
export function locate(json: unknown, hits: readonly Replacement[]): void {
  if (json === undefined) return;
  const byToken = new Map(hits.filter((h) => h.fieldPath === null).map((h) => [h.token, h]));
  if (byToken.size === 0) return;
  forEachString(json, (path, value) => {
    for (const token of value.match(TOKEN) ?? []) {
      const hit = byToken.get(token);
      if (hit) hit.fieldPath = path === '' ? '$' : path;
    }
  });
}
