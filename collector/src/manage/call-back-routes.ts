// HTTP in for click-to-call (outbound/, issue 68): a member calls a person back from the tracking
// number. Agents and above; in the activity log with the number dialled. The numbers typed are read
// in the domain's country (issue 79: `(415) 555-0160` on a US domain is +1 415…, not Switzerland's
// +41 55…); the account's dialling rules and hourly limits refuse in words (dialling/).
import type Router from '@koa/router';
import { z } from 'zod';
import { DiallingRefused } from '../dialling/refused.ts';
import type { DomainCollections } from '../domains/documents.ts';
import { countryOf, DEFAULT_COUNTRY, e164Of } from '../domains/phone-numbers.ts';
import { phoneIn } from '../domains/settings.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, refusedAs400 } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import { CallRefused, type ClickToCall } from '../outbound/click-to-call.ts';
import type { PeopleCollections } from '../people/documents.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import { carrierCall } from './carrier-routes.ts';
import { domainOf } from './settings-routes.ts';


const phoneOf = (country: string) => z.string().trim().max(30).pipe(phoneIn(country));

export const callBackBodyIn = (country: string) =>
  z
    .object({
      phone: phoneOf(country).optional().describe("Your own phone, rung first, when your profile has none (it is kept there); read in the domain's country"),
      trackingNumber: phoneOf(country).optional().describe('The tracking number to call from; absent: the one the person texted or called last'),
    })
    .strict();
export const callBackBody = callBackBodyIn(DEFAULT_COUNTRY);

export function callBackRoutes(router: Router, c: DomainCollections & PeopleCollections, can: Can, clickToCall: ClickToCall | null): void {
  router.post('/domains/:domain/people/:personId/call', can(RULES.answerLeads, 'person.call'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const personId = Number(ctx.params.personId);
    const person = Number.isSafeInteger(personId) ? await c.people.findOne({ _id: personId, domainId: domain._id }) : null;
    if (!person || person.erasedAt) throw new ManageFailure(404, `No person ${ctx.params.personId} in this domain`);
    const body = valid(callBackBodyIn(countryOf(domain)), bodyOf(ctx.request));
    if (!clickToCall) throw new ManageFailure(400, 'Calls cannot be placed from this collector');
    const call = await refusedAs400(() => carrierCall(() => clickToCall.start({ domain, personId: person.mergedInto ?? personId, member: memberOf(ctx), ...(body.phone ? { memberPhone: body.phone } : {}), ...(body.trackingNumber ? { trackingNumber: body.trackingNumber } : {}) })), CallRefused, DiallingRefused);
    auditing(ctx, { personId, callId: call._id, dialled: e164Of(call.caller!), memberPhone: e164Of(call.outbound!.memberPhone) });
    ctx.status = 201;
    ctx.body = { callId: call._id, direction: 'outbound', status: 'ringing you first' };
  });
}
