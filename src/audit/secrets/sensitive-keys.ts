import { Memo } from '../held/memo.js';

/**
 * Field names that hold credentials whatever their value looks like
 * (`password`, `client_secret`, `apiKey`, `Authorization`), and values that
 * are placeholders rather than credentials (`***`, `[REDACTED]`, `${TOKEN}`).
 */

const SENSITIVE_WORDS = new Set(['password', 'passwd', 'pwd', 'passphrase', 'secret', 'token', 'apikey', 'authorization', 'cookie', 'credential', 'credentials']);
/** Pairs of words that together name a credential (`api_key`, `private-key`, `access key`). */
const SENSITIVE_PAIRS = new Set(['api key', 'private key', 'access key', 'secret key', 'session key', 'signing key', 'x api', 'auth token']);
/** Words that make a field about a credential rather than the credential itself (`token_count`, `password_policy`). */
const META_WORDS = new Set([
  'count', 'counts', 'type', 'name', 'names', 'id', 'ids', 'url', 'uri', 'path', 'file', 'len', 'length', 'limit', 'max', 'min',
  'usage', 'expires', 'expiry', 'expiration', 'ttl', 'hash', 'sha256', 'page', 'cursor', 'next', 'budget', 'estimate', 'kind',
  'format', 'field', 'rule', 'hint', 'policy', 'required', 'enabled', 'set', 'present', 'env', 'var', 'ref', 'source', 'label',
]);

/** The words of a field name: `clientSecret` → client, secret; `X-Api-Key` → x, api, key. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** Field names repeat in every record: each is classified once (bounded, cleared when full). */
const verdicts = new Memo(4096, classifyKey);

export function isSensitiveKey(name: string): boolean {
  return verdicts.get(name);
}

function classifyKey(name: string): boolean {
  const words = wordsOf(name);
  if (words.length === 0 || words.some((word) => META_WORDS.has(word))) return false;
  if (words.some((word) => SENSITIVE_WORDS.has(word))) return true;
  for (let i = 0; i + 1 < words.length; i += 1) if (SENSITIVE_PAIRS.has(`${words[i]} ${words[i + 1]}`)) return true;
  return false;
}

/** Masked, redacted, empty-ish or a reference to where the secret lives (`${API_KEY}`, `{{ secrets.X }}`). */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  if (/^[*xX•#.\-_]+$/.test(v)) return true;
  if (/^[[<(]?\s*(redacted|masked|hidden|removed|none|null|undefined|n\/a|changeme|placeholder)\b/i.test(v)) return true;
  if (/^\$\{[^}]*\}$|^\$[A-Z_][A-Z0-9_]*$|^\{\{.*\}\}$/.test(v)) return true;
  return false;
}

/** The field name a path ends in (`args.headers.Authorization` → Authorization), or null for an array item. */
export function lastKeyOf(path: string): string | null {
  if (path === '' || path.endsWith(']') || path.endsWith('>')) return null;
  const dot = path.lastIndexOf('.');
  const tail = dot === -1 ? path : path.slice(dot + 1);
  // Most keys have no `>` (the mark of a JSON string decoded in place): no regex for them.
  return (tail.includes('>') ? tail.replace(/^.*>/, '') : tail) || null;
}
