// The data family's envelope: `status: ERROR` + `errors`, every problem of a request at once.
// HTTP 200 like the spec's other families, so a client branches on `status`; 500 for
// `Cannot handle request`, the one answer worth retrying.
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import { envelope } from './envelope.ts';

export class DataFailure extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
  }
}

export function dataEnvelope(log: Logger): Middleware {
  return envelope(log, 'data', (err) => (err instanceof DataFailure ? { status: 200, body: { status: 'ERROR', errors: err.errors } } : null), {
    status: 500,
    body: { status: 'ERROR', errors: ['Cannot handle request'] },
  });
}
