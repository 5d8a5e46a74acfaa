// HTTP in for the data service: GET with the key and parameters in the query string.
import Router from '@koa/router';
import type { DomainCache } from '../domains/domain-cache.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import { DataFailure, dataEnvelope } from '../http/data-envelope.ts';
import { queryOf } from '../http/query.ts';
import type { Logger } from '../logger.ts';
import { parseDataRequest } from './request.ts';
import { DATA_PAGES_AT_ONCE, PageGate } from './page-gate.ts';
import { RenderedPage, type DataService } from './service.ts';

export function dataRoutes(domains: DomainCache, service: DataService, log: Logger, pagesAtOnce = DATA_PAGES_AT_ONCE): Router {
  const router = new Router();
  const gate = new PageGate(pagesAtOnce);
  router.get('/data-api', dataEnvelope(log), async (ctx) => {
    const raw = queryOf(ctx);
    // A bad key is the only answer: nothing else is checked for a caller who is not a client.
    const domain = await domains.byKey('dataApiKeyHash', raw.api_key);
    if (!domain) throw new DataFailure(['Invalid api key']);
    const request = parseDataRequest(raw, countryOf(domain));
    const answer = await gate.run(domain._id, () => service.query(domain, request));
    if (answer instanceof RenderedPage) ctx.type = 'application/json';
    ctx.body = answer instanceof RenderedPage ? answer.json : answer;
  });
  return router;
}
