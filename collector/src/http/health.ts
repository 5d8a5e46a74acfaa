// Liveness and readiness probes.
import Router from '@koa/router';
import type { Db } from 'mongodb';

export function healthRoutes(db: Db): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      await db.command({ ping: 1 });
      ctx.body = { status: 'ready' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'database unreachable' };
    }
  });
  return router;
}
