// The cart and order services' envelope (spec document 2): HTTP 200 with `status: success`, or
// `status: error` and `message`. An unexpected failure is a 500, which the spec lets shops retry.
import type { Middleware } from 'koa';
import type { CommerceAnswer } from '@ringtrail/shared';
import type { ZodType } from 'zod';
import type { Logger } from '../logger.ts';
import { bodyRejection, envelope } from './envelope.ts';
import { checkParams, problemMessage } from './params.ts';

export class CommerceFailure extends Error {}

export function commerceEnvelope(log: Logger): Middleware {
  const answer = (message: string): CommerceAnswer => ({ status: 'error', message });
  const known = (err: unknown) => {
    const message = err instanceof CommerceFailure ? err.message : bodyRejection(err);
    return message ? { status: 200, body: answer(message) } : null;
  };
  return envelope(log, 'cart and order', known, { status: 500, body: answer('Internal error: nothing was changed; retry later') });
}

/** The first problem of typed fields (the required ones were checked before, with the spec's message). */
export function parseCommerceParams<T>(schema: ZodType<T>, raw: Record<string, unknown>): T {
  const checked = checkParams(schema, raw);
  if (checked.ok) return checked.data;
  throw new CommerceFailure(problemMessage(checked.problems[0]!));
}
