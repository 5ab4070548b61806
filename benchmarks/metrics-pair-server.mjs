// One Node process serving two apps, alike but for the metrics (on: their operators' listener
// open; off: none), each on a port of its own: bench-metrics-pair.mjs loads them in turn. Bundled
// by that script from the server's source (it imports TypeScript), never run directly.
//   argv: <web dist dir> <data dir on> <data dir off> <port on> <ops port> <port off>
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/env.ts';
import { operationsOf } from '../apps/server/src/operations/operations.ts';
import { startStandInPlatform } from '../apps/server/src/stand-in/stand-in-platform.ts';

const [webDistDir, dataDirOn, dataDirOff, portOn, opsPort, portOff] = process.argv.slice(2);

async function start(dataDir, port, ops) {
  // Demo mode's platform, as server.ts starts it (here in process).
  const platform = await startStandInPlatform({ dataDir });
  const config = loadConfig(
    {
      ...process.env,
      ...platform.env,
      PORT: port,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      LINK_ORIGIN: `http://localhost:${port}`,
      OPS_PORT: ops,
    },
    { webDistDir, dataDir },
  );
  const app = await buildApp(config);
  await app.listen({ host: '127.0.0.1', port: Number(port) });
  if (ops !== 'off') await operationsOf(app)?.listen({ host: '127.0.0.1', port: Number(ops) });
  return app;
}

const apps = [await start(dataDirOn, portOn, opsPort), await start(dataDirOff, portOff, 'off')];
process.send?.('ready');
process.once('SIGTERM', () => {
  Promise.all(apps.map((app) => app.close())).then(() => process.exit(0));
});
