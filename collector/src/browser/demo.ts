// The demo site that `npm start` serves next to the collector: one page per display mode.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';

const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../demo');
const PAGES: Record<string, string> = {
  '/demo': 'direct.html', // and /demo/: the router is not strict about the trailing slash
  '/demo/click': 'click.html',
  '/demo/demo.css': 'demo.css',
  '/demo/demo.js': 'demo.js',
};

export function demoRoutes(): Router {
  const router = new Router();
  for (const [route, file] of Object.entries(PAGES)) {
    router.get(route, async (ctx) => {
      ctx.type = path.extname(file);
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = await readFile(path.join(DEMO_DIR, file));
    });
  }
  return router;
}
