// The back end's pages: one HTML shell under /manage/ (and /shared/<token>) and the bundle esbuild makes of ui/
// (manage/build.ts), served from the collector: no CDN.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import type { Context } from 'koa';
import { MANAGE_ASSETS_DIR } from './assets-path.ts';

const ASSETS: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };

const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>RingTrail</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/manage/assets/app.css">
<script defer src="/manage/assets/app.js"></script>
</head>
<body><div id="app"></div></body>
</html>`;

/** Scripts and styles of the collector only; no frame of the back end in another site. */
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Where the request came to, as its browser names it (behind TRUST_PROXY, the proxy's Host). */
export const originOf = (ctx: Context) => `${ctx.protocol}://${ctx.host}`;

/** The back end's page: also the page of a shared report link, whose script reads its address. */
export function managePage(ctx: Context, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = SHELL;
}

export function managePageRoutes(): Router {
  // Strict: `/manage` and `/manage/` are two routes, the first sending to the second.
  const router = new Router({ strict: true });
  router.get('/manage', (ctx) => ctx.redirect('/manage/'));
  router.get('/manage/', (ctx) => managePage(ctx));
  router.get('/manage/assets/:file', async (ctx) => {
    const file = ctx.params.file!;
    if (!Object.hasOwn(ASSETS, file)) return;
    ctx.type = ASSETS[file]!;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await readFile(path.join(MANAGE_ASSETS_DIR, file));
  });
  return router;
}
