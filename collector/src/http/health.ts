// Liveness and readiness probes.
import Router from '@koa/router';
import type { Db } from 'mongodb';

/** A database that has not answered a ping by then is not ready: /readyz says so within a second. */
const READY_WITHIN_MS = 800;

export function healthRoutes(db: Db): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      await Promise.race([
        db.command({ ping: 1 }),
        new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), READY_WITHIN_MS).unref()),
      ]);
      ctx.body = { status: 'ready' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'database unreachable' };
    }
  });
  return router;
}
