import { describe, expect, it } from 'vitest';
import { RenderQueueFull, createRenderQueue } from './render-queue.ts';
import { sleep } from '../timing/sleep.ts';

describe('the render queue', () => {
  it('runs at most `concurrency` tasks at once, the rest in order as slots free', async () => {
    const queue = createRenderQueue(2, 10);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) => async () => {
      running++;
      most = Math.max(most, running);
      await sleep(5);
      running--;
      order.push(n);
      return n;
    };
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => queue.run(task(n))));
    expect(results).toEqual([1, 2, 3, 4, 5, 6]);
    expect(most).toBe(2);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once past `maxWaiting`, and frees its slot when a task fails', async () => {
    const queue = createRenderQueue(1, 1);
    let release: () => void = () => undefined;
    const first = queue.run(
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    const second = queue.run(() => Promise.reject(new Error('drawing failed')));
    await expect(queue.run(() => Promise.resolve())).rejects.toBeInstanceOf(RenderQueueFull);
    expect(queue.load).toEqual({ running: 1, waiting: 1 });
    release();
    await first;
    await expect(second).rejects.toThrow('drawing failed');
    await expect(queue.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
