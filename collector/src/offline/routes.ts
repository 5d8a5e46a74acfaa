// HTTP in for the offline numbers service: GET with the key and parameters in the query string.
import Router from '@koa/router';
import type { Context } from 'koa';
import { offlineListRequest, offlineRequest } from '@ringtrail/shared';
import type { Collections } from '../db/collections.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { domainByKey } from '../domains/domain-lookup.ts';
import { OfflineFailure, offlineEnvelope, parseOfflineParams } from '../http/offline-envelope.ts';
import { queryOf } from '../http/query.ts';
import type { Logger } from '../logger.ts';
import type { OfflineNumbers } from './service.ts';

export function offlineRoutes(c: Collections, service: OfflineNumbers, log: Logger): Router {
  const router = new Router();

  /** The key first (`Invalid API key`), then whether the domain may use this API. */
  async function domainOf(raw: Record<string, unknown>): Promise<DomainDoc> {
    const domain = await domainByKey(c, 'offlineApiKeyHash', raw.key);
    if (!domain) throw new OfflineFailure('Invalid API key');
    if (!domain.offlineApiEnabled) throw new OfflineFailure('Access denied to this API');
    return domain;
  }

  router.get('/offline-numbers-api', offlineEnvelope(log), async (ctx: Context) => {
    const raw = queryOf(ctx);
    const domain = await domainOf(raw);
    ctx.body = await service.run(domain, parseOfflineParams(offlineRequest, raw));
  });
  router.get('/offline-numbers-api/list', offlineEnvelope(log), async (ctx: Context) => {
    const raw = queryOf(ctx);
    const domain = await domainOf(raw);
    ctx.body = await service.list(domain, parseOfflineParams(offlineListRequest, raw).details === '1');
  });
  return router;
}
