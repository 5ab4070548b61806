import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { refusal } from '../test-support/database-refusal.ts';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('opening PostgreSQL', () => {
  it('stops at once on an unreachable server, naming DATABASE_URL and where, never the password', async () => {
    const port = await closedPort();
    const error = await refusal(`postgres://app:s3cret-pw@127.0.0.1:${port}/guquan`);
    expect(error.message).toMatch(
      new RegExp(
        `^DATABASE_URL: cannot connect to PostgreSQL at app@127\\.0\\.0\\.1:${port}/guquan: `,
      ),
    );
    expect(error.message).not.toContain('s3cret-pw');
  });
});
