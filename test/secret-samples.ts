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
const HEX = '0123456789abcdef';

/** One of `prefixes` then the pieces, joined: every token is built at run time, none is written out whole. */
const token = (ruleId: string, prefixes: readonly string[], ...pieces: Array<fc.Arbitrary<string> | string>) =>
  fc
    .tuple(fc.constantFrom(...prefixes), ...pieces.map((piece) => (typeof piece === 'string' ? fc.constant(piece) : piece)))
    .map((parts) => plain(ruleId)(parts.join('')));

/**
 * The prefixed token formats of src/sanitize/token-formats.ts, one kind each. Prefixes are
 * split (`'h' + 'f_'`) so that no line of this file reads as a token to a scanner.
 */
function TOKEN_FORMAT_KINDS(): Record<string, fc.Arbitrary<SecretSample>> {
  const uuid = fc.tuple(chars(HEX, 8), chars(HEX, 4), chars(HEX, 4), chars(HEX, 4), chars(HEX, 12)).map((parts) => parts.join('-'));
  const b64 = `${ALNUM}+/`;
  return {
    'huggingface-token': token('huggingface-token', ['h' + 'f_', 'api_' + 'org_'], chars(UPPER + LOWER, 34)),
    'langsmith-key': token('langsmith-key', ['lsv' + '2_pt_', 'lsv' + '2_sk_'], chars(HEX, 32), '_', chars(HEX, 10)),
    'langfuse-key': token('langfuse-key', ['sk-' + 'lf-'], uuid),
    'groq-key': token('groq-key', ['gs' + 'k_'], chars(ALNUM, 52)),
    'replicate-token': token('replicate-token', ['r' + '8_'], chars(ALNUM, 37)),
    'perplexity-key': token('perplexity-key', ['pp' + 'lx-'], chars(ALNUM, 48)),
    'xai-key': token('xai-key', ['xa' + 'i-'], chars(ALNUM, 80)),
    'pinecone-key': token('pinecone-key', ['pc' + 'sk_'], chars(ALNUM, 5), '_', chars(ALNUM, 60, 70)),
    'tavily-key': token('tavily-key', ['tv' + 'ly-', 'tv' + 'ly-dev-'], chars(ALNUM, 32)),
    'e2b-key': token('e2b-key', ['e2' + 'b_'], chars(HEX, 40)),
    'npm-token': token('npm-token', ['np' + 'm_'], chars(ALNUM, 36)),
    'gitlab-token': fc.oneof(
      token('gitlab-token', ['gl' + 'pat-', 'gl' + 'dt-', 'gl' + 'rt-', 'gl' + 'ptt-'], chars(URLSAFE, 20)),
      token('gitlab-token', ['gl' + 'pat-'], chars(URLSAFE, 27), '.01.', chars(LOWER + DIGITS, 9)),
    ),
    'pypi-token': token('pypi-token', ['py' + 'pi-AgEIcHlwaS5vcmc'], chars(URLSAFE, 60, 120)),
    'docker-token': token('docker-token', ['dc' + 'kr_pat_'], chars(URLSAFE, 27)),
    'buildkite-token': token('buildkite-token', ['bk' + 'ua_'], chars(HEX, 40)),
    'atlassian-token': token('atlassian-token', ['ATA' + 'TT3'], chars(URLSAFE, 180), '=', chars('0123456789ABCDEF', 8)),
    'linear-key': token('linear-key', ['li' + 'n_api_'], chars(ALNUM, 40)),
    'postman-key': token('postman-key', ['PM' + 'AK-'], chars(HEX, 24), '-', chars(HEX, 34)),
    'figma-token': token('figma-token', ['fi' + 'gd_'], chars(URLSAFE, 40)),
    'notion-token': fc.oneof(token('notion-token', ['sec' + 'ret_'], chars(ALNUM, 43)), token('notion-token', ['nt' + 'n_'], chars(DIGITS, 11), chars(ALNUM, 35))),
    'sentry-token': fc.oneof(token('sentry-token', ['sn' + 'tryu_'], chars(HEX, 64)), token('sentry-token', ['sn' + 'trys_eyJ'], chars(b64, 80, 120))),
    'digitalocean-token': token('digitalocean-token', ['do' + 'p_v1_', 'do' + 'o_v1_', 'do' + 'r_v1_'], chars(HEX, 64)),
    'vault-token': fc.oneof(token('vault-token', ['hv' + 's.'], chars(URLSAFE, 90)), token('vault-token', ['hv' + 'b.'], chars(URLSAFE, 130))),
    'terraform-token': token('terraform-token', [''], chars(ALNUM, 14), '.atlas' + 'v1.', chars(ALNUM, 67)),
    'pulumi-token': token('pulumi-token', ['pu' + 'l-'], chars(HEX, 40)),
    'doppler-token': token('doppler-token', ['dp' + '.pt.', 'dp' + '.st.', 'dp' + '.sa.'], chars(ALNUM, 43)),
    'databricks-token': token('databricks-token', ['da' + 'pi'], chars(HEX, 32)),
    'grafana-token': fc.oneof(token('grafana-token', ['gl' + 'c_'], chars(b64, 60, 120)), token('grafana-token', ['gl' + 'sa_'], chars(ALNUM, 32), '_', chars(HEX, 8))),
    'vercel-token': token('vercel-token', ['vc' + 'p_', 'vc' + 'i_', 'vc' + 'k_'], chars(ALNUM, 56)),
    'cloudflare-token': fc.oneof(
      token('cloudflare-token', ['cf' + 'ut_', 'cf' + 'at_'], chars(ALNUM, 40, 53)),
      token('cloudflare-token', ['v1' + '.0-'], chars(HEX, 24), '-', chars(HEX, 146)),
    ),
    'tailscale-key': token('tailscale-key', ['ts' + 'key-auth-', 'ts' + 'key-api-'], chars(ALNUM, 11), '-', chars(ALNUM, 32)),
    'onepassword-token': token('onepassword-token', ['op' + 's_eyJ'], chars(b64, 200, 400)),
    'supabase-key': fc.oneof(token('supabase-key', ['sb' + 'p_'], chars(HEX, 40)), token('supabase-key', ['sb_' + 'secret_'], chars(URLSAFE, 31))),
    'netlify-token': token('netlify-token', ['nf' + 'p_'], chars(ALNUM, 36)),
    'heroku-key': token('heroku-key', ['HR' + 'KU-AA'], chars(URLSAFE, 58)),
    'render-key': token('render-key', ['rn' + 'd_'], chars(ALNUM, 32)),
    'new-relic-key': token('new-relic-key', ['NR' + 'AK-'], chars(UPPER + DIGITS, 27)),
    'google-oauth': fc.oneof(token('google-oauth', ['ya' + '29.'], chars(URLSAFE, 60, 160)), token('google-oauth', ['GOC' + 'SPX-'], chars(URLSAFE, 28))),
    'sendgrid-key': token('sendgrid-key', ['S' + 'G.'], chars(URLSAFE, 22), '.', chars(URLSAFE, 43)),
    'twilio-key': token('twilio-key', ['S' + 'K'], chars(HEX, 32)),
    'mailgun-key': token('mailgun-key', ['ke' + 'y-'], chars(HEX, 32)),
    'shopify-token': token('shopify-token', ['sh' + 'pat_', 'sh' + 'pss_', 'sh' + 'pca_'], chars(HEX, 32)),
    'square-token': fc.oneof(token('square-token', ['sq' + '0atp-', 'sq' + '0csp-'], chars(URLSAFE, 22, 43)), token('square-token', ['EA' + 'AA'], chars(URLSAFE, 60))),
    'shippo-token': token('shippo-token', ['shi' + 'ppo_live_'], chars(HEX, 40)),
    'contentful-token': token('contentful-token', ['CF' + 'PAT-'], chars(URLSAFE, 43)),
    'age-secret-key': token('age-secret-key', ['AGE-SEC' + 'RET-KEY-1'], chars(UPPER + DIGITS, 58)),
  };
}

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
  ...TOKEN_FORMAT_KINDS(),
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
