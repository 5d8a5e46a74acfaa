// The metrics middleware (every request, by the route that matched it) and GET /metrics in the
// Prometheus text format, behind `Authorization: Bearer <METRICS_KEY>`; without a key, off (404).
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { bearerMatches } from '../http/bearer.ts';
import { warningReason, type Metrics } from './metrics.ts';

export function measureRequests(metrics: Metrics): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } finally {
      // The route's pattern, never the raw path: a label per distinct URL would grow without end.
      const labels = { route: (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched', method: ctx.method, status: String(status) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      const body = ctx.body as { status?: unknown; errorMessage?: unknown } | undefined;
      if (body && typeof body === 'object' && body.status === 'WARNING' && typeof body.errorMessage === 'string') metrics.warnings.inc({ reason: warningReason(body.errorMessage) });
    }
  };
}

export function metricsRoutes(metrics: Metrics, key: string | undefined): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    if (!key) {
      ctx.status = 404;
      ctx.body = 'Metrics are off: set METRICS_KEY';
      return;
    }
    if (!bearerMatches(key, ctx.get('authorization'))) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.body = 'Missing or wrong bearer key';
      return;
    }
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  return router;
}
