/**
 * The AWS event stream framing (`application/vnd.amazon.eventstream`) that Bedrock
 * streams use: each message is a 12-byte prelude (total length, headers length, both
 * big-endian uint32, and the CRC32 of those 8 bytes), its headers, its payload and the
 * CRC32 of everything before it. Every length and both checksums are checked.
 */

/** One decoded message: its `:event-type` (or `:exception-type`), `:message-type` and payload bytes. */
export interface StreamMessage {
  readonly eventType: string | null;
  readonly messageType: string | null;
  readonly payload: Buffer;
}

/** The messages read, and the problem that stopped the reading (null when every message was whole and checked). */
export interface DecodedStream {
  readonly messages: StreamMessage[];
  readonly problem: string | null;
}

const PRELUDE = 12;
const MIN_MESSAGE = PRELUDE + 4;
/** The framing allows 16 MiB per message; the body itself is within max-document-bytes. */
const MAX_MESSAGE = 16 * 1024 * 1024;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as zlib computes it. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Whether `bytes` start with a whole event stream prelude whose checksum holds (the framing's own signature). */
export function startsWithEventStream(bytes: Uint8Array): boolean {
  if (bytes.length < MIN_MESSAGE) return false;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const total = view.readUInt32BE(0);
  return total >= MIN_MESSAGE && view.readUInt32BE(4) <= total - MIN_MESSAGE && view.readUInt32BE(8) === crc32(view, 0, 8);
}

/** Every message of an event stream, in order, up to the first one that is cut short or fails a check. */
export function decodeEventStream(bytes: Uint8Array): DecodedStream {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const messages: StreamMessage[] = [];
  let at = 0;
  const stop = (why: string): DecodedStream => ({ messages, problem: `event stream message ${messages.length + 1} (byte ${at}) ${why}` });
  while (at < view.length) {
    if (view.length - at < PRELUDE) return stop(`is cut short: ${view.length - at} bytes left of its 12-byte prelude`);
    const total = view.readUInt32BE(at);
    const headersLength = view.readUInt32BE(at + 4);
    const preludeCrc = view.readUInt32BE(at + 8);
    if (preludeCrc !== crc32(view, at, at + 8)) return stop(`has a bad prelude CRC32 (${hex(preludeCrc)}, computed ${hex(crc32(view, at, at + 8))})`);
    if (total < MIN_MESSAGE || total > MAX_MESSAGE || headersLength > total - MIN_MESSAGE) return stop(`has impossible lengths (total ${total}, headers ${headersLength})`);
    if (view.length - at < total) return stop(`is cut short: ${view.length - at} of its ${total} bytes`);
    const messageCrc = view.readUInt32BE(at + total - 4);
    if (messageCrc !== crc32(view, at, at + total - 4)) return stop(`has a bad message CRC32 (${hex(messageCrc)}, computed ${hex(crc32(view, at, at + total - 4))})`);
    const headers = readHeaders(view.subarray(at + PRELUDE, at + PRELUDE + headersLength));
    if (headers === null) return stop('has headers that cannot be read');
    messages.push({
      eventType: headers.get(':event-type') ?? headers.get(':exception-type') ?? null,
      messageType: headers.get(':message-type') ?? null,
      payload: view.subarray(at + PRELUDE + headersLength, at + total - 4),
    });
    at += total;
  }
  return { messages, problem: null };
}

function hex(n: number): string {
  return `0x${n.toString(16).padStart(8, '0')}`;
}

/** Fixed sizes of the header value types 0–9 (bool true/false, byte, short, int, long, bytes, string, timestamp, uuid); -1: 2-byte length first. */
const VALUE_SIZE = [0, 0, 1, 2, 4, 8, -1, -1, 8, 16];

/** The string headers of one message (other value types are stepped over), or null when they run past their length. */
function readHeaders(bytes: Buffer): Map<string, string> | null {
  const out = new Map<string, string>();
  let i = 0;
  while (i < bytes.length) {
    const nameLength = bytes[i]!;
    if (i + 1 + nameLength + 1 > bytes.length) return null;
    const name = bytes.toString('utf8', i + 1, i + 1 + nameLength);
    const type = bytes[i + 1 + nameLength]!;
    i += nameLength + 2;
    const size = VALUE_SIZE[type];
    if (size === undefined) return null;
    if (size >= 0) {
      if (i + size > bytes.length) return null;
      i += size;
      continue;
    }
    if (i + 2 > bytes.length) return null;
    const length = bytes.readUInt16BE(i);
    if (i + 2 + length > bytes.length) return null;
    if (type === 7) out.set(name, bytes.toString('utf8', i + 2, i + 2 + length));
    i += 2 + length;
  }
  return out;
}
