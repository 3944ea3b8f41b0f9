import { open, type FileHandle } from 'node:fs/promises';

/**
 * The receiver's spool: one OTLP JSON lines file, appended in the order requests
 * are taken. Space is reserved when a request is taken, before anything is
 * written, so a request past the cap is refused whole and an acknowledged span is
 * never dropped. Writes are serialized; `append` resolves once the bytes are in
 * the file, and only then is the request acknowledged.
 */
export class Spool {
  private reserved = 0;
  private tail: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    readonly maxBytes: number,
  ) {}

  /** Opens (and truncates) the spool file. */
  static async create(path: string, maxBytes: number): Promise<Spool> {
    return new Spool(path, await open(path, 'w'), maxBytes);
  }

  /** Bytes written or reserved. */
  get bytes(): number {
    return this.reserved;
  }

  /** Reserves `bytes` when they fit under the cap; false when they do not (nothing is reserved). */
  reserve(bytes: number): boolean {
    if (this.closed || this.reserved + bytes > this.maxBytes) return false;
    this.reserved += bytes;
    return true;
  }

  /** Appends reserved lines (each followed by a newline); resolves once written. */
  append(lines: readonly string[]): Promise<void> {
    const text = lines.map((line) => `${line}\n`).join('');
    const write = this.tail.then(async () => {
      await this.handle.write(text);
    });
    this.tail = write.catch(() => undefined);
    return write;
  }

  /** Waits for every write, syncs the file to disk and closes it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    try {
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
  }
}
