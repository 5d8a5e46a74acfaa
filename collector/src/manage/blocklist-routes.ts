// HTTP in for the back end's blocklist of callers: the list under Settings (add, remove, when and by
// whom), and the calls log's action that blocks or unblocks a call's caller. Numbers are shown as
// the domain's caller privacy shows callers; an entry is removed by its `id` or by its number.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { BlockedCallerDoc, TelephonyCollections } from '../telephony/documents.ts';
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import { maskCaller } from '../domains/caller-privacy.ts';
import { phoneIn } from '../domains/settings.ts';
import { canonicalIn, countryOf, DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { BlockedCallers } from '../telephony/blocked-callers.ts';
import { domainOf } from './settings-routes.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';

export const blockedCallerBodyIn = (country: string) => z.object({ number: phoneIn(country) });
export const blockedCallerBody = blockedCallerBodyIn(DEFAULT_COUNTRY);

/** An entry's handle that does not show its number. */
const idOf = (number: string) => createHash('sha256').update(number).digest('hex').slice(0, 16);

/** An entry as the list shows it: its number as the caller privacy shows callers (the domain's view
 * says how its country writes them: settings-routes.ts). */
function entryView(entry: BlockedCallerDoc, domain: DomainDoc) {
  return { id: idOf(entry.number), number: maskCaller(entry.number, domain.callerPrivacy), addedAt: entry.addedAt.toISOString(), addedBy: entry.addedBy };
}

export function blocklistRoutes(router: Router, c: DomainCollections & TelephonyCollections, can: Can): void {
  const blocked = new BlockedCallers(c);
  const userOf = (ctx: Context) => memberOf(ctx)._id;

  router.get('/domains/:domain/blocked-callers', can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    ctx.body = (await blocked.list(domain._id)).map((e) => entryView(e, domain));
  });

  router.post('/domains/:domain/blocked-callers', can(RULES.manageDomain, 'caller.block'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const { number } = valid(blockedCallerBodyIn(countryOf(domain)), bodyOf(ctx.request));
    auditing(ctx, { caller: idOf(number) });
    ctx.status = 201;
    ctx.body = entryView(await blocked.add(domain._id, number, userOf(ctx)), domain);
  });

  router.delete('/domains/:domain/blocked-callers/:entry', can(RULES.manageDomain, 'caller.unblock'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const entry = ctx.params.entry!;
    const number = (await blocked.list(domain._id)).find((e) => idOf(e.number) === entry)?.number ?? canonicalIn(entry, countryOf(domain));
    if (!number || !(await blocked.remove(domain._id, number))) throw new ManageFailure(404, `${entry} is not blocked`);
    auditing(ctx, { caller: idOf(number) });
    ctx.status = 204;
  });

  // The calls log's actions: by call, so they work whatever the caller privacy hides.
  router.post('/domains/:domain/calls/:callId/block-caller', can(RULES.manageDomain, 'caller.block'), async (ctx) => {
    const { domain, caller } = await callerOf(c, ctx);
    auditing(ctx, { callId: Number(ctx.params.callId), caller: idOf(caller) });
    ctx.body = entryView(await blocked.add(domain._id, caller, userOf(ctx)), domain);
  });

  router.delete('/domains/:domain/calls/:callId/block-caller', can(RULES.manageDomain, 'caller.unblock'), async (ctx) => {
    const { domain, caller } = await callerOf(c, ctx);
    auditing(ctx, { callId: Number(ctx.params.callId), caller: idOf(caller) });
    await blocked.remove(domain._id, caller);
    ctx.status = 204;
  });
}

async function callerOf(c: DomainCollections & TelephonyCollections, ctx: Context): Promise<{ domain: DomainDoc; caller: string }> {
  const domain = await domainOf(c, ctx);
  const callId = Number(ctx.params.callId);
  const call = Number.isSafeInteger(callId) ? await c.calls.findOne({ _id: callId, domainId: domain._id }, { projection: { caller: 1 } }) : null;
  if (!call) throw new ManageFailure(404, `No call ${ctx.params.callId} in this domain`);
  if (!call.caller) throw new ManageFailure(409, 'The caller was anonymous: there is no number to block');
  return { domain, caller: call.caller };
}
