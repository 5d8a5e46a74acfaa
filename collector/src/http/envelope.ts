// What every family's envelope does alike: run the route, turn a failure it knows into its own
// answer, and log and answer anything else as an internal error.
import type { Context, Middleware } from 'koa';
import { DatabaseStalled, type DatabaseStallWatch } from '../db/stall-watch.ts';
import type { Logger } from '../logger.ts';

export interface EnvelopeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function envelope(log: Logger, family: string, known: (err: unknown) => EnvelopeAnswer | null, internal: EnvelopeAnswer): Middleware {
  return async (ctx: Context, next) => {
    try {
      // While the database does not answer (db/stall-watch.ts), the family's internal error at once,
      // and for a request under way as soon as the database is found not to answer.
      const watch = ctx.state.stallWatch as DatabaseStallWatch | undefined;
      if (watch?.stalled) throw new DatabaseStalled();
      await (watch ? watch.guard(next()) : next());
    } catch (err) {
      const answer = known(err);
      if (!answer && !(err instanceof DatabaseStalled)) log.error({ err, path: ctx.path }, `${family} request failed`);
      const { status, body, headers } = answer ?? internal;
      ctx.status = status;
      if (headers) ctx.set(headers);
      ctx.body = body;
    }
  };
}

/** koa-body's own rejections (malformed, too large, wrong type): the client's fault, worth a clear answer. */
export function bodyRejection(err: unknown): string | null {
  const status = (err as { status?: number }).status;
  return status === 400 || status === 413 || status === 415 ? `Invalid request body: ${(err as Error).message}` : null;
}
