import type { FastifyReply } from 'fastify';

/**
 * The page a visitor sees while the database is away: plain HTML in both languages, without
 * scripts or anything that needs the database or the web build, and a link to try again.
 */
const unavailablePage = (requestId: string) => `<!doctype html>
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
<p><small>编号 · Reference: <code>${requestId.replace(/[^A-Za-z0-9._:-]/g, '')}</code></small></p>
</main>
</body>
</html>
`;

export function sendUnavailablePage(reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(unavailablePage(reply.request.id));
}
