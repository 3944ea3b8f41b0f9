import fc from 'fast-check';

/**
 * Generated secrets of every kind the sanitizer knows, for property tests.
 * `text` is what goes into a trace, `hidden` the part no report may show,
 * `fingerprinted` the exact string secret-in-trace fingerprints, `ruleId` the
 * pattern that must report it.
 */
export interface SecretSample {
  readonly ruleId: string;
  readonly text: string;
  readonly hidden: string;
  readonly fingerprinted: string;
}

const chars = (alphabet: string, min: number, max = min) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const URLSAFE = `${ALNUM}_-`;

const plain = (ruleId: string) => (secret: string): SecretSample => ({ ruleId, text: secret, hidden: secret, fingerprinted: secret });

export const SECRET_KINDS: Record<string, fc.Arbitrary<SecretSample>> = {
  'aws-access-key': fc.tuple(fc.constantFrom('AKIA', 'ASIA'), chars(UPPER + DIGITS, 16)).map(([p, b]) => plain('aws-access-key')(p + b)),
  'github-token': fc.oneof(
    fc.tuple(fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), chars(ALNUM, 36)).map(([p, b]) => p + b),
    fc.tuple(chars(ALNUM, 22), chars(ALNUM, 59)).map(([a, b]) => `github_pat_${a}_${b}`),
  ).map(plain('github-token')),
  'openai-key': fc.oneof(chars(ALNUM, 48).map((b) => `sk-${b}`), chars(URLSAFE, 40, 80).map((b) => `sk-proj-${b}`)).map(plain('openai-key')),
  'anthropic-key': chars(URLSAFE, 40, 95).map((b) => plain('anthropic-key')(`sk-ant-api03-${b}`)),
  'slack-token': fc.tuple(fc.constantFrom('xoxb', 'xoxp', 'xapp'), chars(DIGITS, 10, 13), chars(ALNUM, 24)).map(([p, n, b]) => plain('slack-token')(`${p}-${n}-${b}`)),
  'slack-webhook': fc.tuple(chars(UPPER + DIGITS, 8, 10), chars(UPPER + DIGITS, 8, 10), chars(ALNUM, 24)).map(([t, b, s]) => plain('slack-webhook')(`https://hooks.slack.com/services/T${t}/B${b}/${s}`)),
  'google-api-key': chars(URLSAFE, 35).map((b) => plain('google-api-key')(`AIza${b}`)),
  'stripe-key': fc.tuple(fc.constantFrom('sk_live_', 'rk_test_'), chars(ALNUM, 24, 40)).map(([p, b]) => plain('stripe-key')(p + b)),
  jwt: fc.tuple(chars(URLSAFE, 10, 30), chars(URLSAFE, 10, 60), chars(URLSAFE, 20, 43)).map(([h, p, s]) => plain('jwt')(`eyJ${h}.eyJ${p}.${s}`)),
  'authorization-header': fc.tuple(fc.constantFrom('Authorization: Bearer ', 'X-Api-Key: ', 'authorization=Basic '), chars(ALNUM, 20, 40)).map(([h, v]) => ({
    ruleId: 'authorization-header',
    text: h + v,
    hidden: v,
    fingerprinted: v,
  })),
  'cookie-header': chars(ALNUM, 16, 32).map((v) => ({ ruleId: 'cookie-header', text: `Cookie: session=${v}`, hidden: v, fingerprinted: `session=${v}` })),
  'url-credentials': fc.tuple(chars(LOWER, 3, 10), chars(ALNUM, 10, 24)).map(([u, p]) => ({
    ruleId: 'url-credentials',
    text: `https://${u}:${p}@db.example.com/x`,
    hidden: p,
    fingerprinted: `${u}:${p}`,
  })),
  'url-secret-param': fc.tuple(fc.constantFrom('api_key', 'token', 'X-Amz-Signature', 'sig'), chars(ALNUM, 16, 40)).map(([k, v]) => ({
    ruleId: 'url-secret-param',
    text: `https://api.example.com/v1/items?page=2&${k}=${v}`,
    hidden: v,
    fingerprinted: v,
  })),
  'private-key': fc.array(chars(`${ALNUM}+/`, 64), { minLength: 2, maxLength: 5 }).map((lines) => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END RSA PRIVATE KEY-----`;
    return { ruleId: 'private-key', text: pem, hidden: lines[0]!, fingerprinted: pem };
  }),
  'base64-github-token': chars(ALNUM, 36).map((b) => {
    const blob = Buffer.from(`x-access-token:ghs_${b}`).toString('base64');
    return { ruleId: 'base64-github-token', text: blob, hidden: `ghs_${b}`, fingerprinted: blob };
  }),
};

/** Any kind of secret. */
export const anySecret: fc.Arbitrary<SecretSample> = fc.oneof(...Object.values(SECRET_KINDS));

/** Ordinary words around a secret, separated by spaces. */
export const filler: fc.Arbitrary<string> = fc
  .array(fc.constantFrom('the', 'result', 'rows', 'note', 'value', 'done', 'path', 'ok', 'see'), { maxLength: 4 })
  .map((words) => words.join(' '));
