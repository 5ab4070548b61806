// Writes .br and .gz beside every compressible build asset, so the server sends them as they are
// (@fastify/static preCompressed) instead of compressing on every request.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|html|xml|map)$/;
const MIN_BYTES = 1024;

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/precompress.mjs <directory>');
  process.exit(2);
}

let count = 0;
for (const name of await readdir(dir, { recursive: true })) {
  const path = join(dir, name);
  if (!COMPRESSIBLE.test(name) || !(await stat(path)).isFile()) continue;
  const content = await readFile(path);
  if (content.length < MIN_BYTES) continue;
  await writeFile(
    `${path}.br`,
    brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  await writeFile(`${path}.gz`, gzipSync(content, { level: 9 }));
  count += 1;
}
console.log(`precompressed ${count} files in ${dir}`);
