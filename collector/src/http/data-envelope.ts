// The data family's envelope: `status: ERROR` + `errors`, every problem of a request at once.
// HTTP 200 like the spec's other families, so a client branches on `status`; 500 for
// `Cannot handle request`, the one answer worth retrying.
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';

export class DataFailure extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
  }
}

export function dataEnvelope(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof DataFailure)) log.error({ err, path: ctx.path }, 'data request failed');
      ctx.status = err instanceof DataFailure ? 200 : 500;
      ctx.body = { status: 'ERROR', errors: err instanceof DataFailure ? err.errors : ['Cannot handle request'] };
    }
  };
}
