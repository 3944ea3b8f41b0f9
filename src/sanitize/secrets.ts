/**
 * Secret patterns shared by the redactor (everything printed) and the
 * secret-in-trace rule. Each pattern has a stable id used in `[REDACTED:<id>]`.
 *
 * Patterns are applied one after another, most specific first. A pattern with a
 * capture group keeps group 1 (a header name, a URL scheme, a query key) and
 * redacts the rest of its match. A match whose secret part holds nothing but
 * earlier markers is left alone, so redaction is idempotent. A new pattern must be
 * covered by the prefilter (prefilter.ts), which settles most texts without them.
 */
import { findBase64Secrets } from './base64-secrets.js';
import { decodedView, type DecodedView } from './decoded-view.js';
import { maybeSecret, SHORTEST_SECRET } from './prefilter.js';
import { TOKEN_FORMAT_PATTERN } from './token-formats.js';

export interface SecretPattern {
  readonly id: string;
  readonly regex: RegExp;
  /** The id of one match (its redacted part) when the pattern stands for several formats (token-formats.ts); `id` otherwise. */
  readonly idOf?: (secret: string) => string;
  /**
   * The spans of a text where a match can lie (each match whole in one, and the pattern's
   * lookarounds read nothing past a span's edges that could change it): the regex runs on
   * each span alone, the rest of the text is not read by it. Absent: the whole text.
   */
  readonly spans?: (text: string) => Iterable<readonly [number, number]>;
}

/** One match of a pattern: where it starts, the whole match, and the part kept (group 1, or ''). */
export interface PatternMatch {
  readonly index: number;
  readonly text: string;
  readonly keep: string;
}

/**
 * The matches of `pattern` in `text`, left to right, one at a time (a long text can hold many: none is kept).
 * The pattern's own regex is run with `lastIndex` set before each `exec` (matchAll made a copy of it per
 * text, most of a scan's time on short strings), so two scans with one pattern can be under way at once.
 */
export function* matchesOf(pattern: SecretPattern, text: string): Generator<PatternMatch> {
  if (!pattern.spans) {
    yield* execAll(pattern.regex, text, 0);
    return;
  }
  for (const [start, end] of pattern.spans(text)) yield* execAll(pattern.regex, text.slice(start, end), start);
}

/** Every match of the global `regex` in `text`, as matchAll gives them; `offset` is added to each index. */
function* execAll(regex: RegExp, text: string, offset: number): Generator<PatternMatch> {
  // Without the g flag exec ignores lastIndex and finds the first match again and again (matchAll threw).
  if (!regex.global) throw new TypeError(`secret pattern ${regex.source.slice(0, 40)} needs the g flag`);
  let at = 0;
  while (at <= text.length) {
    regex.lastIndex = at;
    const m = regex.exec(text);
    if (m === null) return;
    // An empty match moves on one character, as matchAll does.
    at = m[0].length === 0 ? m.index + 1 : m.index + m[0].length;
    yield { index: offset + m.index, text: m[0], keep: m[1] ?? '' };
  }
}

/** The id a match of `pattern` is reported and redacted under. */
function idOfMatch(pattern: SecretPattern, match: string): string {
  return pattern.idOf ? pattern.idOf(match) : pattern.id;
}

/**
 * Not preceded by a letter or digit (`_` may precede: `env_AKIA…`). Prefixes
 * distinctive enough (`ghp_`, `sk-ant-`, `xoxb-`) need no such guard.
 */
const START = '(?<![A-Za-z0-9])';

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { id: 'private-key', regex: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  // No guard after a token: one glued to more letters (or longer than 255) is still redacted.
  { id: 'github-token', regex: /gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}/g },
  { id: 'anthropic-key', regex: new RegExp(`sk-ant-[A-Za-z0-9_-]{20,}`, 'g') },
  { id: 'openai-key', regex: new RegExp(`${START}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,})`, 'g') },
  // Exactly 20 upper-case letters and digits; lower-case letters may follow (`AKIA…secret`).
  { id: 'aws-access-key', regex: new RegExp(`${START}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])`, 'g') },
  { id: 'slack-token', regex: new RegExp(`(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`, 'g') },
  { id: 'slack-webhook', regex: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]+/g },
  { id: 'google-api-key', regex: new RegExp(`${START}AIza[0-9A-Za-z_-]{35}`, 'g') },
  { id: 'stripe-key', regex: new RegExp(`${START}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})`, 'g') },
  // Hugging Face, npm, GitLab, SendGrid and the other prefixed formats, in one pattern (token-formats.ts).
  TOKEN_FORMAT_PATTERN,
  // Starts only where a run of token characters starts: `-eyJ` repeated is one candidate, not one per
  // `eyJ` (each of which rescanned the rest of the run: quadratic). Each run is then read by at most
  // one candidate as its header and one as its payload: linear.
  { id: 'jwt', regex: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  { id: 'aws-secret-key', regex: /\b(aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi },
  { id: 'cookie-header', regex: /\b((?:set-)?cookie["']?\s*[:=]\s*["']?)[^\s;"']{3,}(?:;[ \t]*[^\s;"']+)*/gi },
  {
    id: 'authorization-header',
    regex: /\b((?:proxy-)?(?:authorization|x-api-key|api-key|x-auth-token|private-token)["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token|Digest|Bot)\s+)?)[^\s"',;]{6,}/gi,
  },
  // Anchored on `://`, the scheme (at most 32 characters) checked behind it: a scheme matched first
  // (`a.` repeated, then ` ://`) was rescanned from every `\b`. The scheme stays outside the match.
  { id: 'url-credentials', regex: /(:\/\/)(?<=\b[a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/:@"']+:[^\s/"']+(?=@)/gi },
  {
    id: 'url-secret-param',
    regex: /([?&](?:api[_-]?key|key|token|access[_-]?token|auth|client[_-]?secret|secret|signature|sig|password|private[_-]?token|X-Amz-Signature|X-Amz-Credential|X-Goog-Signature)=)[^&\s"'#]{6,}/gi,
  },
];

/** One secret found in a text: the pattern id and the secret itself (the redacted part of the match). */
export interface SecretMatch {
  readonly ruleId: string;
  readonly secret: string;
}

const MARKER = /\[REDACTED:[a-z0-9-]+(?::[0-9]+)?\]/g;
const MAX_ROUNDS = 4;

/** True when `text` has something left once redaction markers are removed. */
function hasSubstance(text: string): boolean {
  return /[A-Za-z0-9]/.test(text.replace(MARKER, ''));
}

/** One round over every pattern; `found` collects what was redacted. */
function redactRound(text: string, found: SecretMatch[]): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    let next = '';
    let at = 0;
    for (const { index, text: match, keep } of matchesOf(pattern, out)) {
      const secret = match.slice(keep.length);
      if (!hasSubstance(secret)) continue;
      const id = idOfMatch(pattern, secret);
      found.push({ ruleId: id, secret });
      next += `${out.slice(at, index)}${keep}[REDACTED:${id}]`;
      at = index + match.length;
    }
    if (at > 0) out = next + out.slice(at);
  }
  for (const hit of findBase64Secrets(out, secretRuleOf)) {
    found.push({ ruleId: `base64-${hit.ruleId}`, secret: hit.blob });
    out = out.split(hit.blob).join(`[REDACTED:base64-${hit.ruleId}]`);
  }
  return out;
}

/** The id of the first pattern with a real match in `text` (no base64 decoding), or null. */
function secretRuleOf(text: string): string | null {
  for (const pattern of SECRET_PATTERNS) {
    for (const { text: match, keep } of matchesOf(pattern, text)) if (hasSubstance(match.slice(keep.length))) return idOfMatch(pattern, match.slice(keep.length));
  }
  return null;
}

/**
 * Redacts `text` until no pattern matches; returns the result and every secret removed.
 * Then the same patterns run on the text's decoded view (percent escapes decoded,
 * NFKC): a secret found there is redacted where its encoded form stands in `text`.
 */
export function scanSecrets(text: string): { text: string; found: SecretMatch[] } {
  return scanSecretsWith(text, maybeSecret);
}

/**
 * The scan with `prefilter` deciding which texts (the text, then its decoded view) the
 * patterns run on. `scanSecrets` passes `maybeSecret`; `() => true` gives the unfiltered
 * scan, which the prefilter's test compares with.
 */
export function scanSecretsWith(text: string, prefilter: (text: string) => boolean): { text: string; found: SecretMatch[] } {
  const found: SecretMatch[] = [];
  if (text.length < SHORTEST_SECRET) return { text, found };
  let out = text;
  if (prefilter(text)) {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const next = redactRound(out, found);
      if (next === out) break;
      out = next;
    }
  }
  const view = decodedView(out);
  if (view !== null && prefilter(view.text)) out = redactEncoded(out, view, found);
  return { text: out, found };
}

/** Redacts in `text` the originals of the secrets its decoded view holds. */
function redactEncoded(text: string, view: DecodedView, found: SecretMatch[]): string {
  const spans: Array<{ start: number; end: number; id: string }> = [];
  for (const pattern of SECRET_PATTERNS) {
    for (const { index, text: match, keep } of matchesOf(pattern, view.text)) {
      const secret = match.slice(keep.length);
      if (!hasSubstance(secret)) continue;
      const id = idOfMatch(pattern, secret);
      spans.push({ start: view.from[index + keep.length]!, end: view.from[index + match.length]!, id });
      found.push({ ruleId: id, secret });
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    const start = Math.max(span.start, at);
    out += `${text.slice(at, start)}[REDACTED:${span.id}]`;
    at = span.end;
  }
  return out + text.slice(at);
}

/** Replaces every secret in `text` with `[REDACTED:<id>]`. Idempotent. */
export function redactSecrets(text: string): string {
  return scanSecrets(text).text;
}
