/**
 * Secret patterns shared by the redactor (everything printed) and the
 * secret-in-trace rule. Each pattern has a stable id used in `[REDACTED:<id>]`.
 */
export interface SecretPattern {
  readonly id: string;
  readonly regex: RegExp;
}

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { id: 'private-key', regex: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  { id: 'github-token', regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { id: 'anthropic-key', regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { id: 'openai-key', regex: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { id: 'aws-access-key', regex: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { id: 'slack-token', regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { id: 'slack-webhook', regex: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g },
  { id: 'google-api-key', regex: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { id: 'stripe-key', regex: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { id: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { id: 'authorization-header', regex: /\b((?:authorization|proxy-authorization|x-api-key|api-key|cookie)["']?\s*[:=]\s*["']?)(?:(?:Bearer|Basic|Token)\s+)?[^\s"',;]{6,}/gi },
  { id: 'url-credentials', regex: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@"']+:[^\s/@"']+@/gi },
  { id: 'url-secret-param', regex: /([?&](?:api[_-]?key|key|token|access[_-]?token|secret|signature|sig|password|X-Amz-Signature|X-Amz-Credential)=)[^&\s"'#]{4,}/gi },
];

/** Replaces every secret in `text` with `[REDACTED:<id>]`. Idempotent. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const { id, regex } of SECRET_PATTERNS) {
    regex.lastIndex = 0;
    out = out.replace(regex, (_match, prefix: unknown) => {
      const keep = typeof prefix === 'string' ? prefix : '';
      return `${keep}[REDACTED:${id}]`;
    });
  }
  return out;
}
