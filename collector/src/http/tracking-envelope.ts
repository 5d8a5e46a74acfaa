// The call tracking family's envelope: `status` + `errorMessage`.
// HTTP 200 for every answer a client should read (WARNING and parameter errors included);
// 500 only for SYSTEM_ERROR, the one answer worth retrying.
import type { Middleware } from 'koa';
import type { ZodType } from 'zod';
import type { TrackingProblem } from '@ringtrail/shared';
import { TrackingFailure } from './tracking-failure.ts';
import type { Logger } from '../logger.ts';
import { bodyRejection, envelope } from './envelope.ts';
import { checkParams } from './params.ts';

export function trackingEnvelope(log: Logger): Middleware {
  const known = (err: unknown) => {
    const bad = bodyRejection(err);
    const failure = err instanceof TrackingFailure ? err : bad ? new TrackingFailure('INVALID_PARAMETER', bad) : null;
    if (!failure) return null;
    const body: TrackingProblem = { status: failure.status, errorMessage: failure.message, ...failure.ids, ...failure.ours };
    return { status: failure.http.status ?? 200, body, ...(failure.http.headers ? { headers: failure.http.headers } : {}) };
  };
  const internal: TrackingProblem = { status: 'SYSTEM_ERROR', errorMessage: 'Internal error: the request was not processed; retry later' };
  return envelope(log, 'tracking', known, { status: 500, body: internal });
}

/** Validates a tracking request; the first problem becomes MISSING_PARAMETER or INVALID_PARAMETER. */
export function parseTrackingParams<T>(schema: ZodType<T>, raw: Record<string, unknown>): T {
  const checked = checkParams(schema, raw);
  if (checked.ok) return checked.data;
  const { name, missing, message } = checked.problems[0]!;
  if (missing) throw new TrackingFailure('MISSING_PARAMETER', `Missing parameter ${name}`);
  throw new TrackingFailure('INVALID_PARAMETER', `Invalid parameter ${name}: ${message}`);
}
