// The telephony family's envelope (ours; the spec leaves the telephony side out):
// `{"status":"OK",...}`, or `{"status":"ERROR","error":"..."}` with a 4xx that a PBX logs, or 500.
import type { Middleware } from 'koa';
import type { ZodType } from 'zod';
import type { Logger } from '../logger.ts';
import { bodyRejection, envelope } from './envelope.ts';
import { checkParams, problemMessage } from './params.ts';

export class TelephonyFailure extends Error {
  constructor(
    readonly httpStatus: 400 | 401 | 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

export function telephonyEnvelope(log: Logger): Middleware {
  const known = (err: unknown) => {
    const bad = bodyRejection(err);
    const failure = err instanceof TelephonyFailure ? err : bad ? new TelephonyFailure(400, bad) : null;
    return failure ? { status: failure.httpStatus, body: { status: 'ERROR', error: failure.message } } : null;
  };
  return envelope(log, 'telephony', known, { status: 500, body: { status: 'ERROR', error: 'Internal error: nothing was recorded; retry' } });
}

/** Every problem of the report at once: a PBX developer fixes them in one go. */
export function parseTelephonyParams<T>(schema: ZodType<T>, raw: Record<string, unknown>): T {
  const checked = checkParams(schema, raw);
  if (checked.ok) return checked.data;
  const lines = checked.problems.map(problemMessage);
  throw new TelephonyFailure(400, [...new Set(lines)].join('; '));
}
