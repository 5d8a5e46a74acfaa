// The form door (ours): POST /t/form, what the tag's form capture sends, with the same key, origin,
// body size and rate limit checks as /t/view (browser/door.ts). Answered in the call tracking family's
// envelope, but with HTTP statuses a browser's network log shows: 400 for a field list that is not a
// flat list of text values, 413 for a body over the cap, 403 when the domain's form tracking is off.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { browserFormRequest } from '@ringtrail/shared';
import { browserDoor } from '../browser/door.ts';
import type { BrowserRateLimit } from '../browser/rate-limit.ts';
import type { DomainCache } from '../domains/domain-cache.ts';
import { parseBrowserBody } from '../http/body.ts';
import { bodyRejection } from '../http/envelope.ts';
import { trackingEnvelope } from '../http/tracking-envelope.ts';
import type { Logger } from '../logger.ts';
import { TrackingFailure } from '../http/tracking-failure.ts';
import type { FormSubmissions } from './submissions.ts';
import type { DomainCollections } from '../domains/documents.ts';

/** A refused body or parameter says so in its HTTP status too. */
const withHttpStatus: Middleware = async (_ctx, next) => {
  try {
    await next();
  } catch (err) {
    const rejected = bodyRejection(err);
    if (rejected) throw new TrackingFailure('INVALID_PARAMETER', rejected, {}, { status: (err as { status?: number }).status === 413 ? 413 : 400 });
    if (err instanceof TrackingFailure && (err.status === 'INVALID_PARAMETER' || err.status === 'MISSING_PARAMETER') && !err.http.status) throw new TrackingFailure(err.status, err.message, err.ids, { status: 400 });
    throw err;
  }
};

export function formRoutes(c: DomainCollections, domains: DomainCache, submissions: FormSubmissions, limit: BrowserRateLimit, log: Logger): Router {
  const router = new Router();
  const handle = browserDoor(c, domains, limit, log);
  router.post(
    '/t/form',
    trackingEnvelope(log),
    withHttpStatus,
    parseBrowserBody,
    handle(browserFormRequest, async (domain, req) => {
      if (!domain.formTracking?.enabled) throw new TrackingFailure('AUTHENTICATION_ERROR', 'Form tracking is off for this domain', {}, { status: 403 });
      const form = await submissions.submit(domain, req);
      return { status: 'OK', formId: form._id, lead: form.lead };
    }),
  );
  return router;
}
