// One log line per request: method, path (never the query string, which may hold keys), status, time.
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';

export function requestLog(log: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started), ip: ctx.ip },
        'request',
      );
    }
  };
}
