import { createServer } from 'node:net';

/** A port the server is about to listen on, and the setting that chose it. */
export interface PlannedPort {
  setting: string;
  host: string;
  port: number;
}

/** Whether `host:port` can be listened on now: tried, then let go at once. */
function tryListen(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code ?? error.message);
    });
    probe.listen({ host, port, exclusive: true }, () => {
      probe.close(() => {
        resolve(undefined);
      });
    });
  });
}

/**
 * The configuration problems of ports another program holds, one line each naming its setting,
 * before the server listens on any: a start that cannot have all its ports says so and listens
 * on none, rather than saying it listens and then exiting (issue 39). Port 0 (any free port)
 * is never taken.
 */
export async function portsTaken(planned: readonly PlannedPort[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { setting, host, port } of planned) {
    if (port === 0) continue;
    const refused = await tryListen(host, port);
    if (refused === undefined) continue;
    const why = refused === 'EADDRINUSE' ? 'another program is listening on it' : refused;
    problems.push(`  ${setting}: cannot listen on ${host}:${port} (${why}); choose another port`);
  }
  return problems;
}
