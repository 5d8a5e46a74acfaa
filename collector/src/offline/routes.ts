// HTTP in for the offline numbers service: GET with the key and parameters in the query string.
import Router from '@koa/router';
import type { Context } from 'koa';
import { offlineListRequest, offlineRequest, type OfflineRequest } from '@ringtrail/shared';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import type { DomainCache } from '../domains/domain-cache.ts';
import { canonicalIn, countryOf, DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { domainNumberNamed } from '../domains/pool-numbers.ts';
import { OfflineFailure, offlineEnvelope, parseOfflineParams } from '../http/offline-envelope.ts';
import { queryOf } from '../http/query.ts';
import type { Logger } from '../logger.ts';
import type { OfflineNumbers } from './service.ts';

/** The request's numbers read in the domain's country (the schema read them as the spec does, as
 * French): the phone number as its people write it, the tracking number whichever reading is one of
 * the domain's numbers (a spec type's French number, or one of ours). A French domain's stay as read. */
async function numbersIn(c: DomainCollections, domain: DomainDoc, req: OfflineRequest, raw: Record<string, unknown>): Promise<OfflineRequest> {
  const country = countryOf(domain);
  if (country === DEFAULT_COUNTRY) return req;
  const phone = typeof raw.phone_number === 'string' && req.phone_number !== undefined ? canonicalIn(raw.phone_number, country) : undefined;
  if (phone === null) throw new OfflineFailure(`Invalid parameter phone_number: not a phone number of ${country}; write another country's number with its country code`);
  const tracking = typeof raw.tracking_number === 'string' && req.tracking_number !== undefined ? await domainNumberNamed(c, domain, raw.tracking_number) : undefined;
  return { ...req, ...(phone ? { phone_number: phone } : {}), ...(tracking ? { tracking_number: tracking } : {}) };
}

export function offlineRoutes(c: DomainCollections, domains: DomainCache, service: OfflineNumbers, log: Logger): Router {
  const router = new Router();

  /** The key first (`Invalid API key`), then whether the domain may use this API. */
  async function domainOf(raw: Record<string, unknown>): Promise<DomainDoc> {
    const domain = await domains.byKey('offlineApiKeyHash', raw.key);
    if (!domain) throw new OfflineFailure('Invalid API key');
    if (!domain.offlineApiEnabled) throw new OfflineFailure('Access denied to this API');
    return domain;
  }

  router.get('/offline-numbers-api', offlineEnvelope(log), async (ctx: Context) => {
    const raw = queryOf(ctx);
    const domain = await domainOf(raw);
    ctx.body = await service.run(domain, await numbersIn(c, domain, parseOfflineParams(offlineRequest, raw), raw));
  });
  router.get('/offline-numbers-api/list', offlineEnvelope(log), async (ctx: Context) => {
    const raw = queryOf(ctx);
    const domain = await domainOf(raw);
    ctx.body = await service.list(domain, parseOfflineParams(offlineListRequest, raw).details === '1');
  });
  return router;
}
