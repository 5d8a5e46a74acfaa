// The offline numbers family's envelope: HTTP 200 always, `status: error` + `error` on failure.
import type { Middleware } from 'koa';
import type { ZodType } from 'zod';
import type { OfflineError } from '@ringtrail/shared';
import type { Logger } from '../logger.ts';
import { checkParams } from './params.ts';

export class OfflineFailure extends Error {}

export function offlineEnvelope(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof OfflineFailure)) log.error({ err, path: ctx.path }, 'offline numbers request failed');
      const answer: OfflineError = { status: 'error', error: err instanceof OfflineFailure ? err.message : 'Internal error: nothing was changed; retry later' };
      ctx.status = err instanceof OfflineFailure ? 200 : 500;
      ctx.body = answer;
    }
  };
}

/** Validates offline parameters; the first problem becomes `Missing parameter <name>` or `Invalid parameter <name>: ...`. */
export function parseOfflineParams<T>(schema: ZodType<T>, raw: Record<string, unknown>): T {
  const checked = checkParams(schema, raw);
  if (checked.ok) return checked.data;
  const { name, missing, message } = checked.problems[0]!;
  throw new OfflineFailure(missing ? `Missing parameter ${name}` : `Invalid parameter ${name}: ${message}`);
}
