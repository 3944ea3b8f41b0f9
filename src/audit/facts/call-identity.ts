import { canonicalize, sha256Bytes } from '../../canonical/index.js';
import type { ToolCall, ToolResult } from '../../model/records.js';
import type { HeldCall, HeldResult } from '../../model/run.js';

/**
 * What makes two calls "identical": the same tool and the same canonical
 * arguments (RFC 8785, so key order does not matter). A call's key is the JCS text
 * of the pair `[tool, args]`, so no tool/args pair can collide with another, and it
 * comes out of the canonical encoder as one flat string (no pieces to join). Keys
 * are taken when a record arrives (hold.ts) and kept compact on the held record
 * (issue 22): a key longer than KEPT_WHOLE characters is kept as `#` and the first
 * 16 bytes of the SHA-256 of its UTF-16 code units, one Latin-1 character a byte (17
 * characters: a 40-byte string, where all 32 bytes took 56), so a run holds no copy
 * of its payloads. 128 bits: two different keys share a digest with odds 2^-128, so
 * among a million keys of a run the odds of any such pair are about 1e-27 (n²/2^129).
 * Keys are only compared, never printed. A canonical text starts with `[`, `{`, `"`,
 * a digit, `-`, `t`, `f` or `n`, never with `#`, so a whole key and a digest never meet.
 */
const KEPT_WHOLE = 64;
/** The bytes of the SHA-256 a long key keeps. */
const DIGEST_BYTES = 16;

/** Canonical JSON of a value, or null when it has none (absent, or not representable). */
export function canonicalOrNull(value: unknown): string | null {
  if (value === undefined) return null;
  try {
    return canonicalize(value);
  } catch {
    return null;
  }
}

/** A key as a held record keeps it: itself when short, else `#` and its digest's bytes. */
function compact(key: string): string {
  if (key.length <= KEPT_WHOLE) return key;
  // Written into one buffer and read out once: one flat string of 17 characters (`#` joined
  // to the digest's text would be held as two strings and the joint that links them).
  const held = Buffer.allocUnsafe(1 + DIGEST_BYTES);
  held[0] = 0x23;
  sha256Bytes(Buffer.from(key, 'utf16le')).copy(held, 1, 0, DIGEST_BYTES);
  return held.toString('latin1');
}

/**
 * A text kept from a parsed line (a replay transcript's exact canonical text) may be
 * a slice that keeps its whole line alive; a short one is copied into a string of its own.
 */
function detached(text: string): string {
  if (text.length > KEPT_WHOLE) return text;
  return /^[\u0000-\u00ff]*$/.test(text) ? Buffer.from(text, 'latin1').toString('latin1') : Buffer.from(text, 'utf16le').toString('utf16le');
}

/** The key of a call's (tool, canonical args) as it arrives; null when it carries no usable arguments. */
export function argsKeyOf(call: ToolCall): string | null {
  if (call.args === undefined && call.argsCanonical === undefined) return null;
  if (call.argsCanonical === undefined) {
    const pair = canonicalOrNull([call.tool, call.args]);
    if (pair !== null) return compact(pair);
  }
  // Exact replay text, a tool name JCS refuses (a lone surrogate: JSON.stringify escapes
  // it, which keeps names apart), or arguments it refuses (no key).
  const args = call.argsCanonical ?? canonicalOrNull(call.args);
  return args === null ? null : compact(detached(`[${JSON.stringify(call.tool)},${args}]`));
}

/** The key of a result's canonical content as it arrives (the exact text a replay parser kept, else RFC 8785); null when none. */
export function responseKeyOf(result: ToolResult): string | null {
  if (result.contentCanonical !== undefined) return compact(detached(result.contentCanonical));
  const text = canonicalOrNull(result.content);
  return text === null ? null : compact(text);
}

/** Key of (tool, canonical args); null when the call carries no usable arguments. */
export function argsKey(call: HeldCall): string | null {
  return call.argsKey;
}

/**
 * Fingerprint of (tool, args hash): the canonical arguments when they were
 * recorded (the `argsKey`), otherwise the recorded args hash. The two kinds are
 * tagged apart (an `argsKey` starts with `[` or `#`), since a recorded hash
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
