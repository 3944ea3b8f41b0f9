import { canonicalize, sha256Hex } from '../canonical/index.js';
import type { ToolCall, ToolResult } from '../model/records.js';
import type { HeldCall, HeldResult } from '../model/run.js';

/**
 * What makes two calls "identical": the same tool and the same canonical
 * arguments (RFC 8785, so key order does not matter). Keys are plain strings
 * meant for a Map; the tool name is length-prefixed so no tool/args pair can
 * collide with another. They are taken when a record arrives (hold.ts) and kept
 * compact on the held record (issue 22): a key longer than KEPT_WHOLE characters is
 * kept as `#` and the 32 bytes of the SHA-256 of its UTF-16 code units, one Latin-1
 * character a byte (33 characters, injective as SHA-256 is), so a run holds no copy
 * of its payloads; a shorter key is copied into one flat string, not the tree of
 * pieces a template literal leaves. Keys are only compared, never printed. No
 * canonical text and no argument key starts with `#`, so a whole key and a digest
 * never meet.
 */
const KEPT_WHOLE = 64;
const LATIN1 = /^[\u0000-\u00ff]*$/;

/** Canonical JSON of a value, or null when it has none (absent, or not representable). */
export function canonicalOrNull(value: unknown): string | null {
  if (value === undefined) return null;
  try {
    return canonicalize(value);
  } catch {
    return null;
  }
}

/** A key as a held record keeps it: itself (flat) when short, else `#` and its digest's bytes. */
function compact(key: string): string {
  if (key.length > KEPT_WHOLE) return `#${Buffer.from(sha256Hex(Buffer.from(key, 'utf16le')), 'hex').toString('latin1')}`;
  return LATIN1.test(key) ? Buffer.from(key, 'latin1').toString('latin1') : key;
}

/** The key of a call's (tool, canonical args) as it arrives; null when it carries no usable arguments. */
export function argsKeyOf(call: ToolCall): string | null {
  const args = call.argsCanonical ?? canonicalOrNull(call.args);
  return args === null ? null : compact(`${call.tool.length}:${call.tool}:${args}`);
}

/** The key of a result's canonical content as it arrives (the exact text a replay parser kept, else RFC 8785); null when none. */
export function responseKeyOf(result: ToolResult): string | null {
  const text = result.contentCanonical ?? canonicalOrNull(result.content);
  return text === null ? null : compact(text);
}

/** Key of (tool, canonical args); null when the call carries no usable arguments. */
export function argsKey(call: HeldCall): string | null {
  return call.argsKey;
}

/**
 * Fingerprint of (tool, args hash): the canonical arguments when they were
 * recorded (the `argsKey`), otherwise the recorded args hash. The two kinds are
 * tagged apart (an `argsKey` starts with a digit or `#`), since a recorded hash
 * may come from another canonical form.
 */
export function fingerprintKey(call: HeldCall): string | null {
  const key = call.hasArgs ? call.argsKey : null;
  if (key !== null) return key;
  // not representable canonically: fall back to the recorded hash
  return call.argsHash === null ? null : `recorded:${call.tool.length}:${call.tool}:${call.argsHash}`;
}

/** Key of a result's canonical content, or null (taken at arrival by the rules that keep 'response-key'). */
export function responseKey(result: HeldResult): string | null {
  return result.responseKey;
}

/** How a message points at a call: its transcript index where it has one, else its line. */
export function callPlace(call: HeldCall): string {
  return call.index !== null ? `index ${call.index}` : `line ${call.loc.line}`;
}
