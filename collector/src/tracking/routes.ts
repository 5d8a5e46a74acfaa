// HTTP in for the call tracking service: authenticate, validate, call the service.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ZodType } from 'zod';
import { ospClickRequest, ospExpirationRequest, ospViewRequest } from '@ringtrail/shared';
import type { DomainDoc } from '../domains/documents.ts';
import type { DomainCache } from '../domains/domain-cache.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { parseTrackingParams, trackingEnvelope } from '../http/tracking-envelope.ts';
import type { Logger } from '../logger.ts';
import { TrackingFailure } from '../http/tracking-failure.ts';
import type { TrackingService } from './service.ts';

export function trackingRoutes(domains: DomainCache, service: TrackingService, log: Logger): Router {
  const router = new Router();
  const envelope = trackingEnvelope(log);

  /** Authentication first (a missing key is AUTHENTICATION_ERROR), then the parameters. */
  function handle<T>(schema: ZodType<T>, run: (domain: DomainDoc, req: T) => Promise<unknown>) {
    return async (ctx: Context) => {
      const raw = bodyOf(ctx.request);
      const domain = await domains.byKey('apiKeyHash', raw.api_key);
      if (!domain) throw new TrackingFailure('AUTHENTICATION_ERROR', 'Invalid api_key: no domain matches it');
      ctx.body = await run(domain, parseTrackingParams(schema, raw));
    };
  }

  router.post('/ospView', envelope, parseBody, handle(ospViewRequest, (d, req) => service.view(d, req)));
  router.post('/ospClick', envelope, parseBody, handle(ospClickRequest, (d, req) => service.click(d, req)));
  router.post('/ospExpiration', envelope, parseBody, handle(ospExpirationRequest, (d, req) => service.expiration(d, req)));
  return router;
}
