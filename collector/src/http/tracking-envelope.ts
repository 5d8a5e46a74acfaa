// The call tracking family's envelope: `status` + `errorMessage`.
// HTTP 200 for every answer a client should read (WARNING and parameter errors included);
// 500 only for SYSTEM_ERROR, the one answer worth retrying.
import type { Middleware } from 'koa';
import type { ZodType } from 'zod';
import type { TrackingProblem } from '@ringtrail/shared';
import { TrackingFailure } from '../tracking/failure.ts';
import type { Logger } from '../logger.ts';
import { checkParams } from './params.ts';

export function trackingEnvelope(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const failure = asTrackingFailure(err);
      if (!failure) log.error({ err, path: ctx.path }, 'tracking request failed');
      const answer: TrackingProblem = failure
        ? { status: failure.status, errorMessage: failure.message, ...failure.ids }
        : { status: 'SYSTEM_ERROR', errorMessage: 'Internal error: the request was not processed; retry later' };
      ctx.status = failure?.http.status ?? (answer.status === 'SYSTEM_ERROR' ? 500 : 200);
      if (failure?.http.headers) ctx.set(failure.http.headers);
      ctx.body = answer;
    }
  };
}

function asTrackingFailure(err: unknown): TrackingFailure | null {
  if (err instanceof TrackingFailure) return err;
  const status = (err as { status?: number }).status;
  if (status === 400 || status === 413 || status === 415) {
    return new TrackingFailure('INVALID_PARAMETER', `Invalid request body: ${(err as Error).message}`);
  }
  return null;
}

/** Validates a tracking request; the first problem becomes MISSING_PARAMETER or INVALID_PARAMETER. */
export function parseTrackingParams<T>(schema: ZodType<T>, raw: Record<string, unknown>): T {
  const checked = checkParams(schema, raw);
  if (checked.ok) return checked.data;
  const { name, missing, message } = checked.problems[0]!;
  if (missing) throw new TrackingFailure('MISSING_PARAMETER', `Missing parameter ${name}`);
  throw new TrackingFailure('INVALID_PARAMETER', `Invalid parameter ${name}: ${message}`);
}
