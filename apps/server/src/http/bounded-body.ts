/**
 * The body of an answer from another server, read up to `maxBytes` and never held past it: a
 * `Content-Length` above the limit is refused unread, and a body without one stops being read
 * (the connection dropped) the moment it passes. Undefined when it is too large; a body that
 * breaks off rejects, as reading it would. `received` is told the size of each piece as it comes.
 */
export async function readBodyUpTo(
  response: Response,
  maxBytes: number,
  received?: (bytes: number) => void,
): Promise<Buffer | undefined> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    received?.(value.byteLength);
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
