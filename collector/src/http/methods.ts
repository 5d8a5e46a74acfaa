// A method no route of the collector takes (TRACE, PROPFIND...) is 405 Method Not Allowed, not
// the router's 501: a 5xx says the server failed, and it did not.
import type { Middleware } from 'koa';

const SERVED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export const refuseUnknownMethods: Middleware = async (ctx, next) => {
  if (SERVED.has(ctx.method)) return next();
  ctx.status = 405;
  ctx.set('Allow', [...SERVED].join(', '));
  ctx.body = 'Method Not Allowed';
};
