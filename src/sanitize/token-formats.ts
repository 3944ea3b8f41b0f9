/**
 * Prefixed token formats of services that publish a distinctive prefix (most are
 * partners of GitHub's secret scanning): the prefix plus the length and alphabet of
 * the body make a false positive near impossible. Each pattern's shortest match holds
 * a run of 24 base64 characters, so the prefilter's base64 test already covers it
 * (test/sanitize/token-formats.test.ts checks that, and every id has a generated sample
 * in test/secret-samples.ts and a row in docs/rules/secret-in-trace.md).
 *
 * No capture groups: the whole match is the secret. Ids are lower-case kebab words
 * (they appear in `[REDACTED:<id>]`, findings and configuration). The formats run as
 * one pattern (TOKEN_FORMAT_PATTERN), whose match is named by the format it is.
 */
import { BASE64_RUN, base64RunFrom } from './prefilter.js';
import type { SecretPattern } from './secrets.js';

/**
 * A format is found wherever it stands in a string: after a space, a quote, `_` or a letter
 * or digit (`tool_hf_…`, `x_glpat-…`, `idnpm_…`), as the named patterns of secrets.ts are.
 * Only Square's `EAAA` form keeps this guard (not preceded by a letter or digit; `_` may
 * precede): `EAAA` and 60 base64 characters turn up in any base64 of binary data. Mailgun's
 * `key-` keeps its own: not after `-` or `.` (`cache-key-<md5>` ends a word).
 */
const W = '(?<![A-Za-z0-9])';
/**
 * Not followed by a letter or digit: a fixed-length body glued to more is not that token
 * (`_` may follow: `npm_<36>_tool` is found, its own length bounds it).
 */
const E = '(?![A-Za-z0-9])';

/** One format: its id and its regular expression (no capture group). */
export interface TokenFormat {
  readonly id: string;
  readonly source: string;
}

const p = (id: string, source: string): TokenFormat => ({ id, source });

export const TOKEN_FORMATS: readonly TokenFormat[] = [
  // AI and ML services (the tokens an agent's traces are most likely to hold).
  p('huggingface-token', `(?:hf|api_org)_[A-Za-z0-9]{34,}`),
  p('langsmith-key', `lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}${E}`),
  p('langfuse-key', `sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${E}`),
  p('groq-key', `gsk_[A-Za-z0-9]{48,}`),
  p('replicate-token', `r8_[A-Za-z0-9]{37,}`),
  p('perplexity-key', `pplx-[A-Za-z0-9]{48,}`),
  p('xai-key', `xai-[A-Za-z0-9]{70,}`),
  p('pinecone-key', `pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{50,}`),
  p('tavily-key', `tvly-(?:dev-|prod-)?[A-Za-z0-9]{30,}`),
  p('e2b-key', `e2b_[0-9a-f]{40}${E}`),
  // Code hosting, packages, CI.
  p('npm-token', `npm_[A-Za-z0-9]{36}${E}`),
  p('gitlab-token', `gl(?:pat|dt|ptt|rt|cbt|soat|ffct|imt|agent|oas|ft|wt)-[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]+){0,2}`),
  p('pypi-token', `pypi-AgE[A-Za-z0-9_-]{50,}`),
  p('docker-token', `dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}`),
  p('buildkite-token', `bkua_[0-9a-f]{40}${E}`),
  p('atlassian-token', `ATATT3[A-Za-z0-9_-]{100,}(?:=[0-9A-Fa-f]{8})?`),
  p('linear-key', `lin_(?:api|oauth)_[A-Za-z0-9]{40}${E}`),
  p('postman-key', `PMAK-[0-9a-f]{24}-[0-9a-f]{34}${E}`),
  p('figma-token', `fig[dou]_[A-Za-z0-9_-]{40,}`),
  p('notion-token', `(?:secret_[A-Za-z0-9]{43}|ntn_[0-9]{11}[A-Za-z0-9]{35})${E}`),
  p('sentry-token', `(?:sntrys_eyJ[A-Za-z0-9+/]{60,}={0,2}(?:_[A-Za-z0-9+/]{43})?|sntryu_[0-9a-f]{64}${E})`),
  // Cloud, hosting and infrastructure.
  p('digitalocean-token', `do[opr]_v1_[0-9a-f]{64}${E}`),
  p('vault-token', `hv[sbr]\\.[A-Za-z0-9_-]{24,}`),
  p('terraform-token', `[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_-]{60,}`),
  p('pulumi-token', `pul-[0-9a-f]{40}${E}`),
  p('doppler-token', `dp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,}`),
  p('databricks-token', `dapi[0-9a-f]{32}(?:-[0-9])?${E}`),
  p('grafana-token', `(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[0-9a-fA-F]{8}${E})`),
  p('vercel-token', `vc[pikar]_[A-Za-z0-9]{24,}`),
  p('cloudflare-token', `(?:cf(?:ut|at|k)_[A-Za-z0-9]{40,}|v1\\.0-[0-9a-f]{24}-[0-9a-f]{146}${E})`),
  p('tailscale-key', `tskey-(?:[a-z]+-)?[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}`),
  p('onepassword-token', `ops_eyJ[A-Za-z0-9+/]{100,}={0,2}`),
  p('supabase-key', `(?:sbp_[0-9a-f]{40}${E}|sb_secret_[A-Za-z0-9_-]{24,})`),
  p('netlify-token', `nfp_[A-Za-z0-9]{36,}`),
  p('heroku-key', `HRKU-[A-Za-z0-9_-]{40,}`),
  p('render-key', `rnd_[A-Za-z0-9]{32,}`),
  p('new-relic-key', `NRAK-[A-Z0-9]{27}${E}`),
  p('google-oauth', `(?:ya29\\.[A-Za-z0-9_-]{30,}|GOCSPX-[A-Za-z0-9_-]{28}${E})`),
  // Messaging, payments, commerce.
  p('sendgrid-key', `SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}${E}`),
  p('twilio-key', `SK[0-9a-f]{32}${E}`),
  p('mailgun-key', `(?<![.-])key-[0-9a-f]{32}${E}`),
  p('shopify-token', `shp(?:at|ss|ca|pa)_[0-9a-fA-F]{32}${E}`),
  p('square-token', `(?:sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}|${W}EAAA[A-Za-z0-9_-]{60,})`),
  p('shippo-token', `shippo_live_[0-9a-f]{40}${E}`),
  p('contentful-token', `CFPAT-[A-Za-z0-9_-]{43,}`),
  p('age-secret-key', `AGE-SECRET-KEY-1[0-9A-Z]{58}${E}`),
];

/** Each format anchored, to tell which one a match of the combined pattern is. */
const ANCHORED = TOKEN_FORMATS.map(({ id, source }) => ({ id, regex: new RegExp(`^(?:${source})$`) }));

/** The format of a match of TOKEN_FORMAT_PATTERN (the first that matches it whole). */
export function tokenFormatOf(match: string): string {
  return ANCHORED.find(({ regex }) => regex.test(match))?.id ?? 'token-format';
}

/**
 * The characters a format's match can start with (terraform's aside): a position whose
 * character is none of them is passed without trying the formats. Terraform's token starts
 * with any 14 letters and digits, so it is tried at a word start (or after `_`), with the
 * letters and digits before its 14 kept as the match's group 1 (`x` in `x<14>.atlasv1.…`).
 * test/sanitize/token-placements.test.ts finds every sample in every placement.
 */
const TOKEN_LEADS = 'ACEGHNPSabcdefghklnoprstvxy';
const TERRAFORM = TOKEN_FORMATS.find((f) => f.id === 'terraform-token')!;
const LEADING = TOKEN_FORMATS.filter((f) => f !== TERRAFORM);

/** The characters of a token (every format's body, prefix and suffix: letters, digits, `+/_=.-`), by char code. */
const TOKEN_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_=.-') TOKEN_CHAR[c.charCodeAt(0)] = 1;

function isTokenChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 && TOKEN_CHAR[c] === 1;
}

/**
 * The runs of token characters that hold 24 base64 characters in a row: the only places a
 * format can match. A match is made of token characters only, and each format's shortest
 * match holds such a run (test/sanitize/token-formats.test.ts), so every match lies whole in
 * one of them; the formats' lookarounds test only token characters, which a span's edges are
 * not, so a span read alone gives the matches the whole text gives there. Most text (prose,
 * paths, short ids) is passed over 24 characters at a time. Linear: each span ends at a
 * character that is not a token's, and the next search starts past it.
 */
function* tokenSpans(text: string): Generator<readonly [number, number]> {
  let from = 0;
  for (;;) {
    const run = base64RunFrom(text, from);
    if (run === -1) return;
    let start = run;
    while (start > from && isTokenChar(text, start - 1)) start -= 1;
    let end = run + BASE64_RUN;
    while (end < text.length && isTokenChar(text, end)) end += 1;
    yield [start, end];
    from = end;
  }
}

/**
 * Every format in one pattern: one pass over a text instead of one per format (each pass
 * cost as much as reading the text), and only over the spans that can hold a token. Its
 * matches are reported under each format's own id.
 */
export const TOKEN_FORMAT_PATTERN: SecretPattern = {
  id: 'token-format',
  regex: new RegExp(`(?=[${TOKEN_LEADS}])(?:${LEADING.map((f) => f.source).join('|')})|(?<![A-Za-z0-9])([A-Za-z0-9]*?)(?:${TERRAFORM.source})`, 'g'),
  idOf: tokenFormatOf,
  spans: tokenSpans,
};
