import { createHmac } from 'node:crypto';

/**
 * The fixed, documented key of secret fingerprints. It is public: the
 * fingerprint only lets findings of the same secret be correlated across
 * files, runs and audits; it is not a way to keep a weak secret (a short
 * password) from being guessed. Set the rule's `fingerprintKey` option to a
 * private value when fingerprints leave the machine.
 */
export const DEFAULT_FINGERPRINT_KEY = 'agent-trace-audit/secret-fingerprint/v1';

/** HMAC-SHA256 of the secret's UTF-8 bytes under `key`, first 12 hex digits. */
export function secretFingerprint(secret: string, key: string = DEFAULT_FINGERPRINT_KEY): string {
  return createHmac('sha256', key).update(secret, 'utf8').digest('hex').slice(0, 12);
}
