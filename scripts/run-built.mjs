// Runs one of the server's built commands (apps/server/dist/<name>.js) as it is: nothing is built
// at run time, so the same command works on a production host, which has the build and no
// compiler. On a checkout that has not been built it says what to run instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name)) {
  console.error('Usage: node scripts/run-built.mjs COMMAND [ARGS…]');
  process.exit(2);
}
const script = fileURLToPath(new URL(`../apps/server/dist/${name}.js`, import.meta.url));
if (!existsSync(script)) {
  console.error(`${script} is missing: run \`npm run build\` first (npm start does it too).`);
  process.exit(1);
}
const child = spawn(process.execPath, [script, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
