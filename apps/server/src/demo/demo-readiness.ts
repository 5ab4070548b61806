import type { Db } from '../db/database.ts';
import { waitingImageCount } from '../media/waiting-images.ts';
import { demoCommunityArrived } from './seed/site-demo-records.ts';

/** A demo server looks at most this often whether its demo data has come. */
const CHECK_EVERY_MS = 250;

/**
 * Whether a demo server on the stand-in platform has what it shows: the demo community arrived
 * through the platform's doors, every image of it fetched, and the site's own demo records
 * written. Until then `/health` says `starting` (503), so whatever waits for a server (the tests,
 * the benchmarks, `npm run cluster`, a person's script) starts on the demo it expects. Once true,
 * it stays true without asking the database again.
 */
export function demoDataReadiness(db: Db): () => Promise<boolean> {
  let ready = false;
  let last: { at: number; answer: Promise<boolean> } | undefined;
  const check = async (): Promise<boolean> => {
    if (!(await demoCommunityArrived(db))) return false;
    if ((await waitingImageCount(db)) > 0) return false;
    const membership = await db
      .selectFrom('memberships')
      .select('user_id')
      .limit(1)
      .executeTakeFirst();
    return membership !== undefined;
  };
  return async () => {
    if (ready) return true;
    const now = Date.now();
    if (!last || now - last.at >= CHECK_EVERY_MS) last = { at: now, answer: check() };
    ready = await last.answer.catch(() => false);
    return ready;
  };
}
