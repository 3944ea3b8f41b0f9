import { z } from 'zod';
import type { SourceLocation } from '../../model/records.js';
import { maybeSecret, scanSecrets } from '../../sanitize/secrets.js';
import { defineRule, type ReportFn } from '../rule-types.js';
import { DEFAULT_FINGERPRINT_KEY, secretFingerprint } from '../secrets/fingerprint.js';
import { isPlaceholder, isSensitiveKey, lastKeyOf } from '../secrets/sensitive-keys.js';
import { stringsOf } from '../walk-strings.js';

const options = z.strictObject({
  /** HMAC key of the fingerprints; the default is public (see the rule doc). */
  fingerprintKey: z.string().min(1).default(DEFAULT_FINGERPRINT_KEY),
  /** Fingerprints of known fake secrets (test fixtures) that are not reported. */
  allowFingerprints: z.array(z.string().regex(/^[0-9a-f]{12}$/)).default([]),
});
type Options = z.infer<typeof options>;

interface Place {
  readonly loc: SourceLocation;
  readonly callId: string | null;
  readonly tool: string | null;
  /** Where in the record: "arguments of call 'c1'", "result of call 'c1'". */
  readonly what: string;
}

export const secretInTrace = defineRule({
  meta: {
    id: 'secret-in-trace',
    category: 'error-hygiene',
    defaultSeverity: 'error',
    summary: 'A credential (token, key, password, Authorization value, private key) in tool arguments, results or payloads.',
    likelyCause: 'The agent or a tool passed a live credential through the conversation, or an error echoed the request it failed on.',
    nextAction: 'Rotate the credential, then pass secrets out of band (environment, credential helper) and redact tool output at the adapter.',
    options,
  },
  check(run, ctx, report) {
    const scan = (value: unknown, root: string, place: Place) => scanValue(value, root, place, run.runId, ctx.options, report);
    for (const call of run.calls) {
      const place = { loc: call.loc, callId: call.callId, tool: call.tool, what: `arguments of ${callName(call.callId)}` };
      scan(call.tool, 'tool', { ...place, what: `tool name of ${callName(call.callId)}` });
      scan(call.args, 'args', place);
    }
    for (const result of run.results) {
      scan(result.content, 'result', { loc: result.loc, callId: result.callId, tool: result.tool, what: `result of ${callName(result.callId)}` });
    }
    for (const boundary of run.boundaries) {
      const place = { loc: boundary.loc, callId: boundary.callId, tool: null, what: `boundary payloads of ${callName(boundary.callId)}` };
      for (const hop of ['process', 'adapter', 'model'] as const) scan(boundary.payloads[hop], `${hop}_payload`, place);
    }
  },
});

function callName(callId: string | null): string {
  return callId === null ? 'a call without id' : `call '${callId}'`;
}

function scanValue(value: unknown, root: string, place: Place, runId: string | null, opts: Options, report: ReportFn): void {
  if (value === undefined || value === null) return;
  let seen: Set<string> | null = null; // made on the first hit: most values hold no secret
  const emit = (path: string, ruleId: string, secret: string) => {
    const fp = secretFingerprint(secret, opts.fingerprintKey);
    seen ??= new Set<string>();
    // One finding per secret and record part: a JSON string inside a string shows it twice.
    if (seen.has(`${ruleId}|${fp}`) || opts.allowFingerprints.includes(fp)) return;
    seen.add(`${ruleId}|${fp}`);
    const key = `${path}|${ruleId}|${fp}`;
    report({
      loc: place.loc,
      runId,
      callId: place.callId,
      tool: place.tool,
      key,
      message: `${ruleId} in ${place.what} at '${path}' (fingerprint ${fp})`,
    });
  };
  // The strings are walked from the value itself (other rules share that walk) and the
  // root is put in front of a path only where it is shown or scanned. No root (`args`,
  // `result`, `tool`, `<hop>_payload`) holds a secret or joins one across its separator,
  // so a path can hold a secret only when the part under the root can.
  for (const { path: below, text } of stringsOf(value)) {
    let path: string | null = null;
    const fullPath = () => (path ??= joinPath(root, below));
    // A key can hold a secret too (a token-keyed cache): the path is scanned as well; the sanitizer redacts it in the message.
    if (below !== '' && maybeSecret(below)) for (const hit of scanSecrets(fullPath()).found) emit(fullPath(), hit.ruleId, hit.secret);
    const { found } = scanSecrets(text);
    for (const hit of found) emit(fullPath(), hit.ruleId, hit.secret);
    // The root itself names no credential: only a key under it can be a sensitive field.
    const field = below === '' ? null : lastKeyOf(below);
    if (found.length === 0 && field !== null && isSensitiveKey(field) && !isPlaceholder(text)) emit(fullPath(), 'sensitive-field', text);
  }
}

/** `root` and a path under it, as `stringsOf(value, root)` spells it. */
function joinPath(root: string, below: string): string {
  if (below === '') return root;
  if (root === '' || below.startsWith('[') || below.startsWith('<')) return root + below;
  return `${root}.${below}`;
}
