import { isObject, own } from '../facts/fields.js';
import { argsOf } from '../facts/tool-facts.js';

/** What an output says about how the call went. */
export interface CodexOutcome {
  /** The exit code of a shell call, when the output records one. */
  readonly exitCode: number | null;
  readonly failed: boolean;
  readonly errorClass: string | null;
  /** The placeholder Codex wrote instead of an output when the tool never ran ("aborted", "exec command rejected by user"), else null. */
  readonly notRun: string | null;
}

/** Placeholders Codex writes as the output of a call that did not run. */
/** On the output's first line: the placeholder alone (a full stop allowed), or followed by `: reason`. */
const NOT_RUN = /^(aborted(?: by user)?|(?:exec command|patch) rejected by user)(?:\.?$|:)/i;
const EXIT_LINE = /^(?:Exit code:|Process exited with code)\s*(-?\d+)\s*$/m;

/**
 * Reads an output as the Codex versions write it: a JSON string
 * `{"output", "metadata": {"exit_code"}}`, text with an `Exit code: N` or
 * `Process exited with code N` line, or plain text. A non-zero exit code is a
 * failure; "rejected by user" text is a permission denial.
 */
export function codexOutcome(content: unknown): CodexOutcome {
  const text = typeof content === 'string' ? content.trim() : null;
  const placeholder = text === null ? null : NOT_RUN.exec(text.slice(0, 200).split('\n')[0]!.trim());
  if (placeholder) return { exitCode: null, failed: true, errorClass: null, notRun: placeholder[1]! };
  let exitCode: number | null = null;
  const parsed = argsOf(content);
  const metadata = isObject(parsed) ? own(parsed, 'metadata') : undefined;
  const recorded = isObject(metadata) ? own(metadata, 'exit_code') : undefined;
  if (typeof recorded === 'number' && Number.isInteger(recorded)) exitCode = recorded;
  else if (text !== null) {
    const match = EXIT_LINE.exec(text.slice(0, 4096));
    if (match) exitCode = Number(match[1]);
  }
  const rejected = text !== null && /rejected by user/i.test(text.slice(0, 200));
  const failed = rejected || (exitCode !== null && exitCode !== 0);
  return { exitCode, failed, errorClass: rejected ? 'permission_denied' : null, notRun: null };
}
