// HTTP in for a domain's US texting registration (issue 81, texting/us-registration.ts): where its
// local numbers stand (read from the account's carrier each time: the screen polls it while a
// campaign is reviewed), and the campaign registered. Owners and admins; the registration is in the
// activity log.
import type Router from '@koa/router';
import type { CarrierConnections } from '../carriers/connections.ts';
import type { DomainCollections } from '../domains/documents.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, refusedAs400 } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, type Can } from '../team/access.ts';
import type { TeamCollections } from '../team/documents.ts';
import { RULES } from '../team/roles.ts';
import { helpTextOf } from '../texting/settings.ts';
import { campaignBody, NotRegistrable, registerCampaign, usRegistrationOf } from '../texting/us-registration.ts';
import { carrierCall } from './carrier-routes.ts';
import { domainOf } from './settings-routes.ts';

export function usTextingRoutes(router: Router, c: DomainCollections & TeamCollections, can: Can, carriers: Pick<CarrierConnections, 'carrierOf'>): void {
  const path = '/domains/:domain/texting/us-registration';
  const carrierOf = async (accountId: string) => {
    const carrier = await carrierCall(() => carriers.carrierOf(accountId));
    if (!carrier) throw new ManageFailure(409, 'No carrier is connected to the account: connect Twilio on Account first');
    return carrier;
  };

  router.get(path, can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    ctx.body = await carrierCall(async () => usRegistrationOf(c, await carrierOf(domain.accountId), domain));
  });

  router.post(`${path}/campaign`, can(RULES.manageDomain, 'texting.campaign'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const body = valid(campaignBody, bodyOf(ctx.request));
    const carrier = await carrierOf(domain.accountId);
    const accountName = (await c.accounts.findOne({ _id: domain.accountId }))?.name ?? domain.name;
    const campaign = await carrierCall(() => refusedAs400(() => registerCampaign(c, carrier, domain, body, helpTextOf(domain, accountName)), NotRegistrable));
    auditing(ctx, { campaign: campaign.sid, useCase: campaign.useCase, brand: campaign.brandRegistrationSid });
    ctx.status = 201;
    ctx.body = campaign;
  });
}
