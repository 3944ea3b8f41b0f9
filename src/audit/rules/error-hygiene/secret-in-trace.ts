import { z } from 'zod';
import type { SourceLocation } from '../../../model/records.js';
import { mayHoldSecret } from '../../../sanitize/prefilter.js';
import { defineRule, type ReportFn } from '../rule-types.js';
import { DEFAULT_FINGERPRINT_KEY, secretFingerprint } from '../../secrets/fingerprint.js';
import { secretsIn } from '../../secrets/scan-memo.js';
import { isPlaceholder, isSensitiveKey, lastKeyOf } from '../../secrets/sensitive-keys.js';
import { forEachString, pathUnder } from '../../facts/walk-strings.js';

const options = z.strictObject({
  /** HMAC key of the fingerprints; the default is public (see the rule doc). */
  fingerprintKey: z.string().min(1).default(DEFAULT_FINGERPRINT_KEY),
  /** Fingerprints of known fake secrets (test fixtures) that are not reported. */
  allowFingerprints: z.array(z.string().regex(/^[0-9a-f]{12}$/)).default([]),
});
type Options = z.infer<typeof options>;

/** The record a value belongs to (a call, a result, or a boundary record's call). */
interface Owner {
  readonly loc: SourceLocation;
  readonly callId: string | null;
  readonly tool: string | null;
}

/** Which part of the record is scanned: "arguments" of call 'c1', "result" of call 'c1'. */
type Part = 'arguments' | 'tool name' | 'result' | 'boundary payloads';

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
  // Arguments and results are scanned as they arrive (runs do not hold them); boundary payloads with the run.
  record(arrival, ctx, report) {
    if (arrival.kind === 'catalog') return;
    const scan = scanOf(report, ctx.options, arrival.record.runId);
    if (arrival.kind === 'tool_call') {
      const call = arrival.record;
      scan.value(call.tool, 'tool', call, 'tool name');
      scan.value(call.args, 'args', call, 'arguments');
    } else scan.value(arrival.record.content, 'result', arrival.record, 'result');
  },
  check(run, ctx, report) {
    const scan = new Scan(run.runId, ctx.options, report);
    for (const boundary of run.boundaries) {
      const owner = { loc: boundary.loc, callId: boundary.callId, tool: null };
      for (const hop of ['process', 'adapter', 'model'] as const) scan.value(boundary.payloads[hop], `${hop}_payload`, owner, 'boundary payloads');
    }
  },
});

/** One Scan per report function (one per rule instance), reused record after record: a record costs no allocation. */
const scans = new WeakMap<ReportFn, Scan>();

function scanOf(report: ReportFn, opts: Options, runId: string | null): Scan {
  let scan = scans.get(report);
  if (!scan) scans.set(report, (scan = new Scan(runId, opts, report)));
  scan.runId = runId;
  return scan;
}

function callName(callId: string | null): string {
  return callId === null ? 'a call without id' : `call '${callId}'`;
}

/** Scans the values of one run; allocates nothing for a value that holds no secret. */
class Scan {
  /** Secrets already reported for the value being scanned (made on its first hit). */
  private seen: Set<string> | null = null;
  // The value being scanned and where it sits: read by `visit`, which is made once per run.
  private root = '';
  private current: unknown = undefined;
  private owner: Owner | null = null;
  private part: Part = 'arguments';
  private readonly visit = (below: string, text: string): void => this.string(below, text);

  constructor(
    public runId: string | null,
    private readonly opts: Options,
    private readonly report: ReportFn,
  ) {}

  value(value: unknown, root: string, owner: Owner, part: Part): void {
    if (value === undefined || value === null) return;
    this.seen = null;
    this.root = root;
    this.current = value;
    this.owner = owner;
    this.part = part;
    // The strings are walked from the value itself and the root is put in front of a
    // path only where it is shown or scanned. No root (`args`, `result`, `tool`,
    // `<hop>_payload`) holds a secret or joins one across its separator, so a path can
    // hold a secret only when the part under the root can.
    forEachString(value, this.visit);
  }

  private string(below: string, text: string): void {
    const { root, current: value, owner, part } = this;
    // A key can hold a secret too (a token-keyed cache): the path is scanned as well; the sanitizer redacts it in the message.
    if (below !== '' && mayHoldSecret(below)) {
      const path = pathUnder(root, value, below);
      for (const hit of secretsIn(path)) this.emit(owner!, part, path, hit.ruleId, hit.secret);
    }
    const found = secretsIn(text);
    if (found.length > 0) {
      const path = pathUnder(root, value, below);
      for (const hit of found) this.emit(owner!, part, path, hit.ruleId, hit.secret);
    }
    // The root itself names no credential: only a key under it can be a sensitive field.
    const field = below === '' ? null : lastKeyOf(below);
    if (found.length === 0 && field !== null && isSensitiveKey(field) && !isPlaceholder(text)) this.emit(owner!, part, pathUnder(root, value, below), 'sensitive-field', text);
  }

  private emit(owner: Owner, part: Part, path: string, ruleId: string, secret: string): void {
    const fp = secretFingerprint(secret, this.opts.fingerprintKey);
    this.seen ??= new Set<string>();
    // One finding per secret and record part: a JSON string inside a string shows it twice.
    if (this.seen.has(`${ruleId}|${fp}`) || this.opts.allowFingerprints.includes(fp)) return;
    this.seen.add(`${ruleId}|${fp}`);
    this.report({
      loc: owner.loc,
      runId: this.runId,
      callId: owner.callId,
      tool: owner.tool,
      key: `${path}|${ruleId}|${fp}`,
      message: `${ruleId} in ${part} of ${callName(owner.callId)} at '${path}' (fingerprint ${fp})`,
    });
  }
}
