// HTTP in for the data service: GET with the key and parameters in the query string.
import Router from '@koa/router';
import type { DomainCache } from '../domains/domain-cache.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import { DEFAULT_PUBLIC_URL } from '../http/collector-address.ts';
import { DataFailure, dataEnvelope } from '../http/data-envelope.ts';
import { queryOf } from '../http/query.ts';
import type { Logger } from '../logger.ts';
import { serveRecording } from '../recordings/serve.ts';
import type { RecordingStore } from '../recordings/store.ts';
import { parseDataRequest } from './request.ts';
import { DATA_PAGES_AT_ONCE, PageGate } from './page-gate.ts';
import { RenderedPage, type DataService } from './service.ts';

export interface DataRouteOptions {
  pagesAtOnce?: number;
  /** Where people reach the collector (PUBLIC_URL, or where it listens): the recordings' links
   * start with it, never with a request's Host. */
  publicUrl?: string;
  recordings?: RecordingStore;
}

export function dataRoutes(domains: DomainCache, service: DataService, log: Logger, { pagesAtOnce = DATA_PAGES_AT_ONCE, publicUrl = DEFAULT_PUBLIC_URL, recordings }: DataRouteOptions = {}): Router {
  const router = new Router();
  const gate = new PageGate(pagesAtOnce);
  router.get('/data-api', dataEnvelope(log), async (ctx) => {
    const raw = queryOf(ctx);
    // A bad key is the only answer: nothing else is checked for a caller who is not a client.
    const domain = await domains.byKey('dataApiKeyHash', raw.api_key);
    if (!domain) throw new DataFailure(['Invalid api key']);
    const request = parseDataRequest(raw, countryOf(domain));
    const answer = await gate.run(domain._id, () => service.query(domain, request, publicUrl.replace(/\/$/, '')));
    if (answer instanceof RenderedPage) ctx.type = 'application/json';
    ctx.body = answer instanceof RenderedPage ? answer.body : answer;
  });

  // Ours: a record's `recording`, the call's audio to the same api_key, by byte ranges (a player
  // seeks). An audio link is fetched by players and downloaders, which branch on the HTTP status:
  // a bad key is 403 and a call without a stored recording (or of another domain) 404, each with
  // the family's envelope.
  router.get('/data-api/calls/:callId/recording', dataEnvelope(log), async (ctx) => {
    const raw = queryOf(ctx);
    const domain = await domains.byKey('dataApiKeyHash', raw.api_key);
    if (!domain) {
      ctx.status = 403;
      ctx.body = { status: 'ERROR', errors: ['Invalid api key'] };
      return;
    }
    const call = await service.recordedCall(domain, ctx.params.callId!);
    if (!call || !recordings || !serveRecording(ctx, recordings, call, ctx.query.download === '1')) {
      ctx.status = 404;
      ctx.body = { status: 'ERROR', errors: [`No recording of call ${ctx.params.callId}`] };
    }
  });
  return router;
}
