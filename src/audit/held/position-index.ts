/**
 * An index from string keys to positions (whole numbers >= 0: a record's place in
 * its run, a call's in `run.calls`) for the per-run indexes the rules build over
 * every call (issue 22). It holds no key: each slot is a position and its key's
 * hash in two Int32Arrays (8 bytes a slot, a few slots a key), and a key is read
 * back from the position when two hashes meet (`keyAt`), where a Map holds an
 * entry of three references per key and leaves its smaller tables behind as it grows.
 */
export class PositionIndex {
  private positions: Int32Array;
  private hashes: Int32Array;
  private count = 0;

  /** `expected`: how many keys it will hold (it grows past that). */
  constructor(
    private readonly keyAt: (position: number) => string,
    expected: number,
  ) {
    const capacity = capacityFor(expected);
    this.positions = new Int32Array(capacity).fill(-1);
    this.hashes = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The position held for `key`, or -1. */
  get(key: string): number {
    const hash = hashOf(key);
    const mask = this.positions.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const position = this.positions[slot]!;
      if (position === -1) return -1;
      if (this.hashes[slot] === hash && this.keyAt(position) === key) return position;
    }
  }

  /** Holds `position` for `key` unless the key has one: returns the position it already had, or -1 when it was added. */
  add(key: string, position: number): number {
    const hash = hashOf(key);
    const mask = this.positions.length - 1;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      const held = this.positions[slot]!;
      if (held === -1) break;
      if (this.hashes[slot] === hash && this.keyAt(held) === key) return held;
    }
    this.positions[slot] = position;
    this.hashes[slot] = hash;
    this.count += 1;
    if (this.count * 2 > this.positions.length) this.grow();
    return -1;
  }

  private grow(): void {
    const positions = this.positions;
    const hashes = this.hashes;
    this.positions = new Int32Array(positions.length * 2).fill(-1);
    this.hashes = new Int32Array(positions.length * 2);
    const mask = this.positions.length - 1;
    for (let i = 0; i < positions.length; i += 1) {
      if (positions[i] === -1) continue;
      let slot = hashes[i]! & mask;
      while (this.positions[slot] !== -1) slot = (slot + 1) & mask;
      this.positions[slot] = positions[i]!;
      this.hashes[slot] = hashes[i]!;
    }
  }
}

/** The smallest power of two with room for `expected` keys at half load (16 at least). */
function capacityFor(expected: number): number {
  let capacity = 16;
  while (capacity < expected * 2) capacity *= 2;
  return capacity;
}

/** FNV-1a over the UTF-16 code units, then mixed (murmur3's finalizer) so nearby keys spread over the slots. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
