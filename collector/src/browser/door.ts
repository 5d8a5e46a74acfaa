// What every browser door checks before it runs (tracker.js's /t/* requests): the rate limit by
// address, the public key and the page's origin (a refused one noted for the Install box), the
// parameters, then the rate limit by visit. The view, click and expiration doors and the form door
// (forms/routes.ts) share it.
import type { Context } from 'koa';
import type { ZodType } from 'zod';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import type { DomainCache } from '../domains/domain-cache.ts';
import { bodyOf } from '../http/body.ts';
import { parseTrackingParams } from '../http/tracking-envelope.ts';
import type { Logger } from '../logger.ts';
import { TrackingFailure } from '../http/tracking-failure.ts';
import { admitOrigin } from './origin.ts';
import type { BrowserRateLimit } from './rate-limit.ts';
import { noteRefusedOrigin } from './refused-origins.ts';

export interface Visitor {
  ip: string;
  userAgent: string | undefined;
}

/** Rate limit by ip, then the public key and the origin, then the parameters, then the rate limit
 * by visit. `prepare`: reads the raw body before the parameters are checked (GA4's cookies on /t/view). */
export function browserDoor(c: DomainCollections, domains: DomainCache, limit: BrowserRateLimit, log: Logger) {
  return function handle<T extends { visit_id: number }>(schema: ZodType<T>, run: (domain: DomainDoc, req: T, visitor: Visitor, ctx: Context) => Promise<unknown>, prepare?: (raw: Record<string, unknown>) => void) {
    return async (ctx: Context) => {
      const visitor = { ip: ctx.ip.replace(/^::ffff:/, ''), userAgent: ctx.get('User-Agent') || undefined };
      await limit.ip(visitor.ip);
      const raw = bodyOf(ctx.request);
      const domain = await domains.byKey('publicKeyHash', raw.key);
      if (!domain) throw new TrackingFailure('AUTHENTICATION_ERROR', 'Invalid key: no domain has this public key');
      try {
        admitOrigin(ctx, domain);
      } catch (err) {
        await noteRefusedOrigin(c, domain, ctx.get('Origin'), log);
        throw err;
      }
      prepare?.(raw);
      const req = parseTrackingParams(schema, raw);
      if (req.visit_id > 0) await limit.visit(domain._id, req.visit_id);
      ctx.body = await run(domain, req, visitor, ctx);
    };
  };
}
