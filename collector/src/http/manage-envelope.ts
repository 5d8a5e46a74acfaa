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
