import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../test-support/test-engine.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { JOB_LOCKS, runAlone } from './run-alone.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase({ seed: false });
});
afterAll(() => t.close());

describe('runAlone (one server at a time runs a job)', () => {
  it('skips a run while another holds the job, and runs again once it is done', async () => {
    const finishing: { resolve?: () => void } = {};
    const first = runAlone(t.db, TEST_ENGINE, JOB_LOCKS.accountDeletion, async () => {
      await new Promise<void>((resolve) => {
        finishing.resolve = resolve;
      });
      return 'first';
    });
    // Let the first take its lock.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await runAlone(t.db, TEST_ENGINE, JOB_LOCKS.accountDeletion, () =>
      Promise.resolve('second'),
    );
    finishing.resolve?.();
    expect(await first).toEqual({ ran: true, value: 'first' });
    // SQLite's database belongs to one process: nothing to share, so both run.
    expect(second).toEqual(
      TEST_ENGINE === 'postgres' ? { ran: false } : { ran: true, value: 'second' },
    );
    const third = await runAlone(t.db, TEST_ENGINE, JOB_LOCKS.accountDeletion, () =>
      Promise.resolve('third'),
    );
    expect(third).toEqual({ ran: true, value: 'third' });
  });

  it('releases the lock when the job fails', async () => {
    await expect(
      runAlone(t.db, TEST_ENGINE, JOB_LOCKS.accountDeletion, () =>
        Promise.reject(new Error('planted')),
      ),
    ).rejects.toThrow('planted');
    expect(
      await runAlone(t.db, TEST_ENGINE, JOB_LOCKS.accountDeletion, () => Promise.resolve(1)),
    ).toEqual({ ran: true, value: 1 });
  });
});
