// The telephony family's envelope (ours; the spec leaves the telephony side out):
// `{"status":"OK",...}`, or `{"status":"ERROR","error":"..."}` with a 4xx that a PBX logs, or 500.
import type { Middleware } from 'koa';
import type { ZodType } from 'zod';
import type { Logger } from '../logger.ts';
import { checkParams } from './params.ts';

export class TelephonyFailure extends Error {
  constructor(
    readonly httpStatus: 400 | 401 | 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

export function telephonyEnvelope(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const failure = err instanceof TelephonyFailure ? err : bodyFailure(err);
      if (!failure) log.error({ err, path: ctx.path }, 'telephony request failed');
      ctx.status = failure?.httpStatus ?? 500;
      ctx.body = { status: 'ERROR', error: failure?.message ?? 'Internal error: nothing was recorded; retry' };
    }
  };
}

function bodyFailure(err: unknown): TelephonyFailure | null {
  const status = (err as { status?: number }).status;
  return status === 400 || status === 413 || status === 415 ? new TelephonyFailure(400, `Invalid request body: ${(err as Error).message}`) : null;
}

/** Every problem of the report at once: a PBX developer fixes them in one go. */
export function parseTelephonyParams<T>(schema: ZodType<T>, raw: Record<string, unknown>): T {
  const checked = checkParams(schema, raw);
  if (checked.ok) return checked.data;
  const lines = checked.problems.map((p) => (p.missing ? `Missing parameter ${p.name}` : `Invalid parameter ${p.name}: ${p.message}`));
  throw new TelephonyFailure(400, [...new Set(lines)].join('; '));
}
