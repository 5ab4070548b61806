import { startStandInPlatform } from './stand-in/stand-in-platform.ts';
import { STAND_IN_READY, type StandInReady } from './stand-in/stand-in-process.ts';

/**
 * The stand-in platform as a process of its own (dist/stand-in.js): server.ts forks it in demo
 * mode without PLATFORM_* settings, `npm run cluster` starts one for all its servers. Settings:
 * STAND_IN_DATA_DIR (required: its keys and secrets live in `<dir>/stand-in/`), STAND_IN_HOST
 * (127.0.0.1) and STAND_IN_PORT (0: a free one). It tells its parent its settings over the IPC
 * channel (or prints them as JSON on one line without one) and stops when the parent goes.
 */
async function main(): Promise<void> {
  const dataDir = process.env.STAND_IN_DATA_DIR;
  if (!dataDir) throw new Error('STAND_IN_DATA_DIR is required');
  const platform = await startStandInPlatform({
    dataDir,
    host: process.env.STAND_IN_HOST ?? '127.0.0.1',
    port: Number(process.env.STAND_IN_PORT ?? 0),
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    platform.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const ready: StandInReady = { type: STAND_IN_READY, origin: platform.origin, env: platform.env };
  if (process.send) {
    // Forked: the parent's going closes the channel, and the stand-in goes with it.
    process.once('disconnect', stop);
    process.send(ready);
  } else {
    process.stdout.write(`${JSON.stringify(ready)}\n`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
