// GET /openapi.json, and /docs: the same document in Swagger UI (swagger-ui-dist, a well-kept
// renderer whose files the collector serves itself: no CDN).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import { openApiDocument } from './document.ts';

const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES: Record<string, string> = { 'swagger-ui.css': 'text/css; charset=utf-8', 'swagger-ui-bundle.js': 'text/javascript; charset=utf-8' };
/** Its own file, not an inline script: the page's CSP allows scripts of this origin only. */
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, defaultModelsExpandDepth: 0 });`;

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>RingTrail collector API</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>`;

export function openApiRoutes({ demoPages }: { demoPages: boolean }): Router {
  const document = JSON.stringify(openApiDocument({ demoPages }));
  const router = new Router({ strict: true });
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Access-Control-Allow-Origin', '*'); // a public description: any tool may read it
    ctx.body = document;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    ctx.body = PAGE;
  });
  router.get('/docs/assets/:file', async (ctx) => {
    const file = ctx.params.file!;
    if (file === 'init.js') {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = INIT;
    } else if (Object.hasOwn(SWAGGER_FILES, file)) {
      ctx.type = SWAGGER_FILES[file]!;
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = await readFile(path.join(SWAGGER_DIR, file));
    } else {
      ctx.status = 404;
      ctx.body = 'No such asset';
    }
  });
  return router;
}
