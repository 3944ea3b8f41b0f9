import { canonicalize } from '../canonical/index.js';
import type { ToolCall, ToolResult } from '../model/records.js';
import type { MemoSpec, RunMemos } from './memo.js';

/**
 * What makes two calls "identical": the same tool and the same canonical
 * arguments (RFC 8785, so key order does not matter). Keys are plain strings
 * meant for a Map; the tool name is length-prefixed so no tool/args pair can
 * collide with another.
 */

/** Canonical JSON of a value, or null when it has none (absent, or not representable). */
export function canonicalOrNull(value: unknown): string | null {
  if (value === undefined) return null;
  try {
    return canonicalize(value);
  } catch {
    return null;
  }
}

/** Key of (tool, canonical args); null when the call carries no usable arguments. */
export function argsKey(call: ToolCall, memos: RunMemos): string | null {
  return memos.get(ARGS_KEY, call);
}

/**
 * Several rules (and the timeline) ask for the same call's key: each call's arguments
 * are canonicalized once per run. A run memo (a plain Map) rather than a WeakMap:
 * a WeakMap entry per call made every garbage collection walk hundreds of
 * thousands of ephemerons.
 */
const ARGS_KEY: MemoSpec<ToolCall, string | null> = {
  max: 1 << 17,
  compute: (call) => {
    const args = call.argsCanonical ?? canonicalOrNull(call.args);
    return args === null ? null : `${call.tool.length}:${call.tool}:${args}`;
  },
};

/**
 * Fingerprint of (tool, args hash): the canonical arguments when they were
 * recorded (the `argsKey`; equal texts, equal SHA-256, so a map key needs no
 * digest), otherwise the recorded args hash. The two kinds are tagged apart
 * (an `argsKey` starts with a digit), since a recorded hash may come from
 * another canonical form.
 */
export function fingerprintKey(call: ToolCall, memos: RunMemos): string | null {
  const key = call.args === undefined ? null : argsKey(call, memos);
  if (key !== null) return key;
  // not representable canonically: fall back to the recorded hash
  return call.argsHash === null ? null : `recorded:${call.tool.length}:${call.tool}:${call.argsHash}`;
}

/** Canonical text of a result's content (the exact one a replay parser kept, else RFC 8785), or null. */
export function responseKey(result: ToolResult): string | null {
  return result.contentCanonical ?? canonicalOrNull(result.content);
}

/** How a message points at a call: its transcript index where it has one, else its line. */
export function callPlace(call: ToolCall): string {
  return call.index !== null ? `index ${call.index}` : `line ${call.loc.line}`;
}
