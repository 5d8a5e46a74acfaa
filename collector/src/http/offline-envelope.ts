// The offline numbers family's envelope: HTTP 200 always, `status: error` + `error` on failure.
import type { Middleware } from 'koa';
import type { ZodType } from 'zod';
import type { OfflineError } from '@ringtrail/shared';
import type { Logger } from '../logger.ts';
import { envelope } from './envelope.ts';
import { checkParams, problemMessage } from './params.ts';

export class OfflineFailure extends Error {}

export function offlineEnvelope(log: Logger): Middleware {
  const answer = (error: string): OfflineError => ({ status: 'error', error });
  return envelope(log, 'offline numbers', (err) => (err instanceof OfflineFailure ? { status: 200, body: answer(err.message) } : null), {
    status: 500,
    body: answer('Internal error: nothing was changed; retry later'),
  });
}

/** Validates offline parameters; the first problem becomes `Missing parameter <name>` or `Invalid parameter <name>: ...`. */
export function parseOfflineParams<T>(schema: ZodType<T>, raw: Record<string, unknown>): T {
  const checked = checkParams(schema, raw);
  if (checked.ok) return checked.data;
  throw new OfflineFailure(problemMessage(checked.problems[0]!));
}
