import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply } from 'fastify';

/**
 * What the site answers while it is briefly unavailable (the database away, the server closing),
 * and the one source of nginx's own answer when no server can: `npm run build` writes both into
 * the web build's errors/ directory (writeUnavailableFiles), which nginx serves as they are.
 */
export const UNAVAILABLE_ERROR = {
  code: 'service_unavailable',
  message: 'The service is briefly unavailable. Please try again in a moment.',
} as const;

/**
 * The page a visitor sees: plain HTML in both languages, without scripts or anything that needs
 * the database or the web build, and a link to try again. A server's carries the request's id
 * (request-id.ts), so a visitor's report can be found in the logs; nginx's has none.
 */
const unavailablePage = (requestId?: string) => `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>暂时无法访问 · Briefly unavailable</title>
</head>
<body>
<main>
<h1>页面暂时无法访问</h1>
<p>服务正在恢复，请稍后再试。</p>
<p lang="en">This page is briefly unavailable. Please try again in a moment.</p>
<p><a href="">重试 · Try again</a></p>
${requestId === undefined ? '' : referenceLine(requestId)}</main>
</body>
</html>
`;

function referenceLine(requestId: string): string {
  return `<p><small>编号 · Reference: <code>${requestId.replace(/[^A-Za-z0-9._:-]/g, '')}</code></small></p>\n`;
}

/** nginx's page, when no server can answer. */
export const UNAVAILABLE_PAGE = unavailablePage();

export function sendUnavailablePage(reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(unavailablePage(reply.request.id));
}

/** Writes 503.html and 503.json, nginx's answers when no server can (deploy/nginx.conf.template). */
export async function writeUnavailableFiles(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '503.html'), UNAVAILABLE_PAGE);
  await writeFile(
    join(dir, '503.json'),
    `${JSON.stringify({ error: UNAVAILABLE_ERROR }, null, 2)}\n`,
  );
}
