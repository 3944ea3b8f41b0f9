/** The receiver's request queue: how many requests are decoded at once, how many bodies are held waiting. */
/** Requests decoded and spooled at once; the others wait their turn, their bodies read. */
export const REQUEST_TURNS = 1;
/** Bytes of bodies held at once (read, or waiting for their turn), in request caps: past it reading pauses. */
export const BODIES_HELD = 4;

/** A queue of turns: `take` resolves when one is free, in arrival order. */
export class Turns {
  private readonly waiting: Array<() => void> = [];
  constructor(private free: number) {}

  async take(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}
