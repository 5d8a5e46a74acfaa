// HTTP in for the ad platforms (ads/, issue 56): a domain's connection to Google Ads, Microsoft
// Advertising or Meta (its ids shown, its credentials sealed and never shown), its removal, and the
// test button (the platform checks a made-up lead and keeps nothing); the Conversions screen's list.
// Owners and admins connect; everyone who may see a call sees its conversions' states.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { AdsRefused, type AdsConnections } from '../ads/connections.ts';
import { CONNECTION_BODIES } from '../ads/connection-input.ts';
import { ADS_PLATFORMS, type AdsCollections, type AdsPlatform } from '../ads/documents.ts';
import { conversionsList, conversionsQuery } from '../ads/conversions-list.ts';
import { TEST_LEAD, type PlatformClients } from '../ads/platform-clients.ts';
import type { DomainCollections } from '../domains/documents.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, refusedAs400 } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import { domainOf } from './settings-routes.ts';

/** The platform named in the path; 404 for another. */
function platformOf(ctx: Context): AdsPlatform {
  const platform = ctx.params.platform as AdsPlatform;
  if (!ADS_PLATFORMS.includes(platform)) throw new ManageFailure(404, `No ad platform ${ctx.params.platform}: google, microsoft or meta`);
  return platform;
}

/** A refusal of this family as the back end's 400. */
const refusing = <T>(work: () => Promise<T>) => refusedAs400(work, AdsRefused);

export function adsRoutes(router: Router, c: DomainCollections & AdsCollections, can: Can, connections: AdsConnections, clients: PlatformClients): void {
  const path = '/domains/:domain/ads/:platform';

  /** The Conversions screen: each platform in a word with its counts, and the leads' states (whoever sees calls sees them). */
  router.get('/domains/:domain/ads', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    ctx.body = await conversionsList(c, domain, valid(conversionsQuery, ctx.query));
  });

  router.get(path, can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    ctx.body = await connections.view(domain._id, platformOf(ctx));
  });

  router.put(path, can(RULES.manageDomain, 'ads.connect'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const platform = platformOf(ctx);
    const body = valid(CONNECTION_BODIES[platform], bodyOf(ctx.request));
    const view = await refusing(() => connections.connect(domain, platform, body as never, memberOf(ctx)._id));
    auditing(ctx, { platform, ...view.settings });
    ctx.body = view;
  });

  router.delete(path, can(RULES.manageDomain, 'ads.disconnect'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const platform = platformOf(ctx);
    if (!(await connections.disconnect(domain._id, platform))) throw new ManageFailure(404, `${domain.name} is not connected to ${platform}`);
    auditing(ctx, { platform });
    ctx.status = 204;
  });

  /** The platform checks a made-up lead and keeps nothing (Google's validateOnly, Meta's test_event_code): its answer shown. */
  router.post(`${path}/test`, can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const platform = platformOf(ctx);
    const connection = await connections.opened(domain._id, platform);
    if (!connection) throw new ManageFailure(409, `${domain.name} is not connected to ${platform}: connect it first`);
    const answer = await clients.send(platform, connection.doc.settings, connection.secret, [TEST_LEAD(domain.currency, new Date())], true);
    ctx.body = answer.ok ? { ok: true, platform, answer: `${platform} took the test event`, requestId: answer.id } : { ok: false, platform, status: answer.status, answer: answer.message };
  });
}
