import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets, scanSecrets } from '../../src/sanitize/secrets.js';
import { TOKEN_FORMATS } from '../../src/sanitize/token-formats.js';
import { SECRET_KINDS } from '../secret-samples.js';

/**
 * Every token format wherever it stands in a string: after `_`, a letter or a digit, before
 * `_`, and written with JSON escapes; and per format the near misses that must stay text.
 */

/** Square's `EAAA` form turns up in base64 of binary data: after a letter or digit it is not found (its `sq0atp-` is). */
const guardedSample = (id: string, token: string) => id === 'square-token' && !token.startsWith('sq0');

const escapeFirst = (t: string) => `\\u${t.charCodeAt(0).toString(16).padStart(4, '0')}${t.slice(1).replace(/\//g, '\\/')}`;
const escapeAll = (t: string) => [...t].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('token formats wherever they stand', () => {
  it.each(TOKEN_FORMATS.map((f) => f.id))('%s: found after `_`, a letter or a digit, before `_`, and JSON-escaped', (id) => {
    for (const { text: token } of fc.sample(SECRET_KINDS[id]!, { seed: 44, numRuns: 12 })) {
      // `key-` after `-` or `.` is a word's end (`cache-key-<md5>`): mailgun's own guard.
      for (const lead of id === 'mailgun-key' ? ['tool_', 'x_', '"call_'] : ['tool_', 'x_', '"call_', 'run-']) {
        const { text, found } = scanSecrets(`${lead}${token} done`);
        expect(found, `${lead}${token}`).toEqual([{ ruleId: id, secret: token }]);
        expect(text).toBe(`${lead}[REDACTED:${id}] done`);
      }
      for (const lead of ['a', 'Z', '7']) {
        const { found } = scanSecrets(`${lead}${token} done`);
        expect(found, `${lead}${token}`).toEqual(guardedSample(id, token) ? [] : [{ ruleId: id, secret: token }]);
      }
      // Before `_`: a body whose alphabet holds `_` runs on, any other stops there; the token is gone either way.
      const after = scanSecrets(`tool_${token}_tail`);
      expect(after.found).toHaveLength(1);
      expect(after.found[0]!.ruleId).toBe(id);
      expect(after.found[0]!.secret.startsWith(token)).toBe(true);
      expect(after.text).not.toContain(token);
      // Escaped, the token is found in the decoded view (terraform's 14 leading characters may also be read
      // from the escape's last digits on: then the match starts there); no 8 characters of it are left.
      for (const escaped of [escapeFirst(token), escapeAll(token), `tool_${escapeFirst(token)}`]) {
        const { text, found } = scanSecrets(`{"name": "${escaped}"}`);
        if (id === 'terraform-token') expect(found.map((f) => f.ruleId), escaped).toEqual([id]);
        else expect(found, escaped).toEqual([{ ruleId: id, secret: token }]);
        expect(text).toContain(`[REDACTED:${id}]`);
        for (let k = 1; k + 8 <= token.length; k += 8) expect(text).not.toContain(token.slice(k, k + 8));
      }
    }
  });
});

// Near misses, built from pieces: an ordinary word that starts like the prefix, a body too short,
// and the prefix inside a longer identifier that cannot be that token.
const hex = (n: number) => '0a1b2c3d4e5f6789'.repeat(12).slice(0, n);
const alnum = (n: number) => 'q7Wm2Xr9Tz4Kp8Vn3Ly6Hc5Jd'.repeat(8).slice(0, n);
const upper = (n: number) => 'Q7WM2XR9TZ4KP8VN3LY6HC5JD'.repeat(8).slice(0, n);

const NEAR_MISSES: Record<string, readonly [string, string, string]> = {
  'huggingface-token': ['hf_' + 'hub_download', 'hf_' + alnum(20), 'load_hf_' + alnum(10) + '_' + alnum(30)],
  'langsmith-key': ['lsv2_' + 'pt_ prefix', 'lsv2_' + 'pt_' + hex(32) + '_' + hex(5), 'lsv2_' + 'sk_' + hex(32) + '_' + hex(10) + 'abc'],
  'langfuse-key': ['sk-' + 'lf-config', 'sk-' + 'lf-' + hex(8) + '-' + hex(4), 'sk-' + 'lf-' + [hex(8), hex(4), hex(4), hex(4), hex(12)].join('-') + 'zz'],
  'groq-key': ['gs' + 'k_client', 'gs' + 'k_' + alnum(30), 'gs' + 'k_' + alnum(20) + '_' + alnum(30)],
  'replicate-token': ['r8' + '_model', 'r8' + '_' + alnum(20), 'r8' + '_' + alnum(20) + '-' + alnum(20)],
  'perplexity-key': ['pp' + 'lx-api', 'pp' + 'lx-' + alnum(30), 'pp' + 'lx-' + alnum(30) + '_' + alnum(30)],
  'xai-key': ['xa' + 'i-sdk', 'xa' + 'i-' + alnum(50), 'xa' + 'i-' + alnum(40) + '-' + alnum(40)],
  'pinecone-key': ['pc' + 'sk_index', 'pc' + 'sk_abcd_' + alnum(30), 'pc' + 'sk_' + alnum(12) + '_' + alnum(60)],
  'tavily-key': ['tv' + 'ly-dev-setup', 'tv' + 'ly-' + alnum(20), 'tv' + 'ly-dev-' + alnum(20) + '_' + alnum(20)],
  'e2b-key': ['e2' + 'b_sandbox', 'e2' + 'b_' + hex(30), 'e2' + 'b_' + hex(40) + 'x'],
  'npm-token': ['np' + 'm_config_cache', 'np' + 'm_' + alnum(30), 'np' + 'm_' + alnum(36) + 'x'],
  'gitlab-token': ['gl' + 'pat-token', 'gl' + 'pat-' + alnum(10), 'gl' + 'rt-' + alnum(15) + '/' + alnum(15)],
  'pypi-token': ['py' + 'pi-AgE', 'py' + 'pi-AgE' + alnum(30), 'py' + 'pi-AgE' + alnum(30) + '.' + alnum(30)],
  'docker-token': ['dc' + 'kr_pat_', 'dc' + 'kr_pat_' + alnum(20), 'dc' + 'kr_pat_' + alnum(20) + '.' + alnum(20)],
  'buildkite-token': ['bk' + 'ua_agent', 'bk' + 'ua_' + hex(30), 'bk' + 'ua_' + hex(40) + 'g'],
  'atlassian-token': ['ATA' + 'TT3 token', 'ATA' + 'TT3' + alnum(60), 'ATA' + 'TT3' + alnum(60) + '.' + alnum(60)],
  'linear-key': ['li' + 'n_api_key', 'li' + 'n_api_' + alnum(30), 'li' + 'n_api_' + alnum(40) + 'x'],
  'postman-key': ['PM' + 'AK-id', 'PM' + 'AK-' + hex(24) + '-' + hex(20), 'PM' + 'AK-' + hex(24) + '-' + hex(34) + 'g'],
  'figma-token': ['fi' + 'gd_file', 'fi' + 'gd_' + alnum(30), 'fi' + 'gd_' + alnum(30) + '.' + alnum(30)],
  'notion-token': ['sec' + 'ret_key_base', 'sec' + 'ret_' + alnum(30), 'sec' + 'ret_' + alnum(43) + 'x'],
  'sentry-token': ['sn' + 'tryu_token', 'sn' + 'tryu_' + hex(40), 'sn' + 'tryu_' + hex(64) + 'g'],
  'digitalocean-token': ['do' + 'p_v1_api', 'do' + 'p_v1_' + hex(40), 'do' + 'p_v1_' + hex(64) + 'g'],
  'vault-token': ['hv' + 's.example', 'hv' + 's.' + alnum(15), 'hv' + 's.' + alnum(15) + '.' + alnum(15)],
  'terraform-token': ['terraform.atlas' + 'v1.docs', alnum(14) + '.atlas' + 'v1.' + alnum(30), 'my-' + alnum(13) + '.atlas' + 'v1.' + alnum(60)],
  'pulumi-token': ['pu' + 'l-request', 'pu' + 'l-' + hex(30), 'pu' + 'l-' + hex(40) + 'g'],
  'doppler-token': ['dp' + '.pt.config', 'dp' + '.st.' + alnum(30), 'dp' + '.st.' + alnum(30) + '_' + alnum(30)],
  'databricks-token': ['da' + 'pi-docs', 'da' + 'pi' + hex(20), 'da' + 'pi' + hex(32) + 'g'],
  'grafana-token': ['gl' + 'c_cloud', 'gl' + 'c_' + alnum(20), 'gl' + 'sa_' + alnum(32) + '_' + hex(8) + 'g'],
  'vercel-token': ['vc' + 'p_project', 'vc' + 'p_' + alnum(15), 'vc' + 'p_' + alnum(15) + '_' + alnum(15)],
  'cloudflare-token': ['cf' + 'ut_setup', 'cf' + 'ut_' + alnum(30), 'cf' + 'at_' + alnum(30) + '-' + alnum(30)],
  'tailscale-key': ['ts' + 'key-auth', 'ts' + 'key-auth-' + alnum(10), 'ts' + 'key-auth-' + alnum(10) + '_' + alnum(20)],
  'onepassword-token': ['op' + 's_eyJ', 'op' + 's_eyJ' + alnum(50), 'op' + 's_eyJ' + alnum(50) + '.' + alnum(60)],
  'supabase-key': ['sb' + 'p_project', 'sb' + 'p_' + hex(30), 'sb' + 'p_' + hex(40) + 'g'],
  'netlify-token': ['nf' + 'p_site', 'nf' + 'p_' + alnum(20), 'nf' + 'p_' + alnum(20) + '-' + alnum(20)],
  'heroku-key': ['HR' + 'KU-app', 'HR' + 'KU-' + alnum(20), 'HR' + 'KU-' + alnum(20) + '.' + alnum(30)],
  'render-key': ['rn' + 'd_seed', 'rn' + 'd_' + alnum(20), 'rn' + 'd_' + alnum(20) + '_' + alnum(20)],
  'new-relic-key': ['NR' + 'AK-ID', 'NR' + 'AK-' + upper(20), 'NR' + 'AK-' + upper(27) + 'X'],
  'google-oauth': ['ya' + '29.scope', 'ya' + '29.' + alnum(20), 'GOC' + 'SPX-' + alnum(28) + 'x'],
  'sendgrid-key': ['S' + 'G.setup', 'S' + 'G.' + alnum(22) + '.' + alnum(20), 'S' + 'G.' + alnum(22) + '.' + alnum(43) + 'x'],
  'twilio-key': ['S' + 'KU-1234', 'S' + 'K' + hex(20), 'TA' + 'SK' + hex(32) + 'x'],
  'mailgun-key': ['ke' + 'y-value', 'ke' + 'y-' + hex(20), 'cache-ke' + 'y-' + hex(32) + ' v1.ke' + 'y-' + hex(32)],
  'shopify-token': ['sh' + 'pat_x', 'sh' + 'pat_' + hex(20), 'sh' + 'pat_' + hex(32) + 'g'],
  'square-token': ['sq' + '0atp-token', 'sq' + '0atp-' + alnum(10), 'AAAAEA' + 'AA' + alnum(60)],
  'shippo-token': ['shi' + 'ppo_live_mode', 'shi' + 'ppo_live_' + hex(20), 'shi' + 'ppo_live_' + hex(40) + 'g'],
  'contentful-token': ['CF' + 'PAT-token', 'CF' + 'PAT-' + alnum(20), 'CF' + 'PAT-' + alnum(20) + '.' + alnum(30)],
  'age-secret-key': ['AGE-SEC' + 'RET-KEY-1 example', 'AGE-SEC' + 'RET-KEY-1' + upper(30), 'AGE-SEC' + 'RET-KEY-1' + upper(58) + 'X'],
};

describe('near misses of each token format', () => {
  it('every format has its three near misses', () => {
    expect(Object.keys(NEAR_MISSES).sort()).toEqual(TOKEN_FORMATS.map((f) => f.id).sort());
  });

  it.each(Object.entries(NEAR_MISSES))('%s: a word, a short body and a longer identifier stay text, alone and after `_`', (_id, misses) => {
    for (const miss of misses) {
      for (const input of [miss, `tool_${miss}`, `"${miss}"`]) {
        expect(scanSecrets(input).found, input).toEqual([]);
        expect(redactSecrets(input)).toBe(input);
      }
    }
  });
});
