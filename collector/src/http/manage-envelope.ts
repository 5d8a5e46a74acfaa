// The back end's own API (/manage/api): HTTP statuses say what happened, the body `{error}` says why.
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import { bodyRejection, envelope } from './envelope.ts';

export class ManageFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
    /** Fields the body has beside `error` (a carrier's own code). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function manageEnvelope(log: Logger): Middleware {
  return envelope(
    log,
    'manage',
    (err) => {
      if (err instanceof ManageFailure) return { status: err.status, body: { error: err.message, ...err.details }, ...(err.headers ? { headers: err.headers } : {}) };
      const rejected = bodyRejection(err);
      return rejected ? { status: 400, body: { error: rejected } } : null;
    },
    { status: 500, body: { error: 'Internal error' } },
  );
}

/** A path under /manage/api that no route answers (or not with this method): the envelope's error
 * naming it, not Koa's plain "Not Found" that the back end's pages and integrators' JSON readers
 * cannot parse. The Allow header of a 405 is kept. */
export const manageNotFound: Middleware = async (ctx, next) => {
  await next();
  if ((ctx.status === 404 || ctx.status === 405) && ctx.body == null && ctx.path.startsWith('/manage/api/')) {
    const status = ctx.status;
    const where = `${ctx.method} ${ctx.path.slice(0, 200)}`;
    ctx.body = { error: status === 404 ? `No such path: ${where}` : `Method not allowed: ${where}` };
    ctx.status = status;
  }
};

/** A family's refusals (`refusals`: their error classes) as the back end's 400 (or their own `httpStatus`), with their words. */
export async function refusedAs400<T>(work: () => Promise<T>, ...refusals: (abstract new (...args: never[]) => Error)[]): Promise<T> {
  try {
    return await work();
  } catch (err) {
    // A refusal may name its own status (a limit reached: 429, with when to come back).
    const own = err as Error & { httpStatus?: number; retryAfterSeconds?: number };
    if (refusals.some((refused) => err instanceof refused)) throw new ManageFailure(own.httpStatus ?? 400, own.message, own.retryAfterSeconds ? { 'Retry-After': String(own.retryAfterSeconds) } : undefined);
    throw err;
  }
}
