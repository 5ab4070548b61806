import { describe, expect, it } from 'vitest';
import { readBodyUpTo } from './bounded-body.ts';

/** An answer whose body comes in `chunks`, counting what was pulled and whether it was cancelled. */
function streamed(chunks: readonly Uint8Array[], headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  let next = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk === undefined) {
          controller.close();
          return;
        }
        seen.pulled += 1;
        controller.enqueue(chunk);
      },
      cancel() {
        seen.cancelled = true;
      },
      // Nothing pulled ahead: a chunk is pulled only when the reader asks for it.
    },
    { highWaterMark: 0 },
  );
  return { response: new Response(body, { headers }), seen };
}

const bytes = (length: number) => new Uint8Array(length).fill(7);

describe('readBodyUpTo', () => {
  it('answers the whole body up to the limit, the limit included', async () => {
    const { response } = streamed([bytes(3), bytes(2)]);
    expect(await readBodyUpTo(response, 5)).toEqual(Buffer.from(bytes(5)));
  });

  it('refuses a Content-Length past the limit without reading the body', async () => {
    const { response, seen } = streamed([bytes(10)], { 'content-length': '10' });
    expect(await readBodyUpTo(response, 5)).toBeUndefined();
    expect(seen).toEqual({ pulled: 0, cancelled: true });
  });

  it('stops reading the moment a body without a length passes the limit', async () => {
    const { response, seen } = streamed([bytes(4), bytes(4), bytes(4), bytes(4)]);
    expect(await readBodyUpTo(response, 6)).toBeUndefined();
    expect(seen).toEqual({ pulled: 2, cancelled: true });
  });

  it('answers an empty buffer for an answer without a body', async () => {
    expect(await readBodyUpTo(new Response(null), 5)).toEqual(Buffer.alloc(0));
  });
});
