/**
 * The rest of a streamed document (everything outside its streamed lists, the
 * lists written `[]`): the pieces copied, and a checkpoint at each list's "]"
 * with the lines taken out before it, to give the rest's offsets the file's lines.
 */
export class RestCopy {
  /**
   * The bytes copied so far, in one buffer that doubles as it fills. (A Buffer per
   * piece would be a slice of Node's shared 8 KiB pool: each small piece of the rest,
   * one per list closed, kept a whole slab alive, and memory grew with the file.)
   */
  private all = Buffer.allocUnsafeSlow(4096);
  /** Bytes copied so far. */
  size = 0;
  private readonly checkpoints: Array<{ readonly restBytes: number; readonly elided: number }> = [{ restBytes: 0, elided: 0 }];

  add(piece: Buffer): void {
    if (this.size + piece.length > this.all.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.all.length, this.size + piece.length));
      this.all.copy(grown, 0, 0, this.size);
      this.all = grown;
    }
    piece.copy(this.all, this.size);
    this.size += piece.length;
  }

  /** Copying starts again here, with `elided` lines taken out of the rest so far. */
  checkpoint(elided: number): void {
    const last = this.checkpoints[this.checkpoints.length - 1]!;
    // Items dropped one after another leave one checkpoint, not one each.
    if (last.restBytes === this.size && this.checkpoints.length > 1) this.checkpoints[this.checkpoints.length - 1] = { restBytes: this.size, elided };
    else this.checkpoints.push({ restBytes: this.size, elided });
  }

  /**
   * Drops the bytes copied since `from` (an item of a hollow list) when they are
   * JSON on their own, and returns the lines they held (to count as taken out);
   * -1 when they are not JSON: they are kept, for the parse of the whole rest to
   * report as it would have.
   */
  dropIfJson(from: number): number {
    try {
      JSON.parse(this.all.toString('utf8', from, this.size));
    } catch {
      return -1;
    }
    let lines = 0;
    for (let i = from; i < this.size; i += 1) if (this.all[i] === 0x0a) lines += 1;
    this.size = from;
    while (this.checkpoints[this.checkpoints.length - 1]!.restBytes > from) this.checkpoints.pop();
    return lines;
  }

  /** The first `bytes` bytes, as text. */
  text(bytes = this.size): string {
    return this.all.toString('utf8', 0, Math.min(bytes, this.size));
  }

  /**
   * Where lines were taken out (a streamed list's items), for the first `bytes`
   * bytes as text: character offsets and line counts, what `indexLines` takes as
   * jumps to give the file's lines.
   */
  jumps(bytes = this.size): Array<{ at: number; lines: number }> {
    const all = this.all;
    const jumps: Array<{ at: number; lines: number }> = [];
    let chars = 0;
    let from = 0;
    let elided = 0;
    for (const point of this.checkpoints) {
      if (point.restBytes > bytes) break;
      // Checkpoints sit at a "]": an ASCII byte, so the text before it decodes on its own.
      chars += all.subarray(from, point.restBytes).toString('utf8').length;
      from = point.restBytes;
      if (point.elided > elided) jumps.push({ at: chars, lines: point.elided - elided });
      elided = point.elided;
    }
    return jumps;
  }

  /** The line in the file of a character offset in the complete rest text (for a parse error found there). */
  line(text: string, offset: number): number {
    let line = 1;
    for (const jump of this.jumps()) if (jump.at <= offset) line += jump.lines;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
    return line;
  }
}
