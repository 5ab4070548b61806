/** Too many pictures are already waiting to be drawn: the caller answers 503 and asks to retry. */
export class RenderQueueFull extends Error {
  constructor() {
    super('Too many pictures are waiting to be drawn');
    this.name = 'RenderQueueFull';
  }
}

export interface RenderQueue {
  /** Runs `task` when a slot is free; refuses at once when `maxWaiting` tasks already wait. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running and waiting now (tests and the bench read it). */
  readonly load: { running: number; waiting: number };
}

/**
 * At most `concurrency` drawings at a time, and at most `maxWaiting` in line behind them: 64
 * different items asked for at once cost the memory of `concurrency` drawings, not 64, and a
 * flood beyond the line is refused rather than held.
 */
export function createRenderQueue(concurrency: number, maxWaiting: number): RenderQueue {
  let running = 0;
  const waiting: (() => void)[] = [];

  function release(): void {
    running--;
    const next = waiting.shift();
    if (next) {
      running++;
      next();
    }
  }

  return {
    async run(task) {
      if (running >= concurrency) {
        if (waiting.length >= maxWaiting) throw new RenderQueueFull();
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}
