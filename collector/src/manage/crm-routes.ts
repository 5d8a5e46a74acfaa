// HTTP in for a domain's CRM (crm/, issue 67): the connection (its account shown, its credentials
// sealed and never shown), what it sends, its test, its removal, its last 50 deliveries and "Send
// again" for one. Owners and admins only.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { ACTIVITY_OBJECTS, CRMS, CRM_NAMES, CrmFailure, type Crm } from '../crm/crm-client.ts';
import { callItem } from '../crm/crm-items.ts';
import { CrmRefused, hubspotBody, hubspotConnecting, salesforceBody, salesforceConnecting, type CrmConnections } from '../crm/connections.ts';
import { callNotForCrm, formNotForCrm, queueDelivery } from '../crm/crm-queue.ts';
import type { CrmCollections } from '../crm/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, refusedAs400 } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { domainOf } from './settings-routes.ts';

/** The CRM named in the path; 404 for another. */
function crmOf(ctx: Context): Crm {
  const crm = ctx.params.crm as Crm;
  if (!CRMS.includes(crm)) throw new ManageFailure(404, `No CRM ${ctx.params.crm}: ${CRMS.join(' or ')}`);
  return crm;
}

/** A refusal of this family as the back end's 400. */
const refusing = <T>(work: () => Promise<T>) => refusedAs400(work, CrmRefused);

export function crmRoutes(router: Router, c: DomainCollections & TelephonyCollections & FormCollections & CrmCollections, can: Can, connections: CrmConnections, outbox: Outbox, publicUrl = ''): void {
  const path = '/domains/:domain/crm/:crm';

  /** The connection and its last 50 deliveries, newest first. */
  router.get(path, can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const crm = crmOf(ctx);
    const [view, deliveries] = await Promise.all([connections.view(domain._id, crm), connections.deliveries(domain._id, crm)]);
    ctx.body = { ...view, name: CRM_NAMES[crm], deliveries: deliveries.map(({ kind, itemId, records, state, error, at }) => ({ id: `${kind}:${itemId}`, kind, itemId, records, state, error, at })) };
  });

  router.put(path, can(RULES.manageDomain, 'crm.connect'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const crm = crmOf(ctx);
    const to = crm === 'hubspot' ? hubspotConnecting(valid(hubspotBody, bodyOf(ctx.request))) : salesforceConnecting(valid(salesforceBody, bodyOf(ctx.request)));
    const view = await refusing(() => connections.connect(domain, crm, to, memberOf(ctx)._id));
    auditing(ctx, { crm, send: to.send, defaultOwner: to.defaultOwner, credentials: to.secret ? 'new' : 'kept' });
    ctx.body = view;
  });

  router.delete(path, can(RULES.manageDomain, 'crm.disconnect'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const crm = crmOf(ctx);
    if (!(await connections.disconnect(domain._id, crm))) throw new ManageFailure(404, `${domain.name} is not connected to ${CRM_NAMES[crm]}`);
    auditing(ctx, { crm });
    ctx.status = 204;
  });

  /** The CRM's users who may own records, for the default owner (issue 81): read through the stored connection. */
  router.get(`${path}/owners`, can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const crm = crmOf(ctx);
    const opened = await connections.opened(domain._id, crm);
    if (!opened) throw new ManageFailure(409, `${domain.name} is not connected to ${CRM_NAMES[crm]}: connect it first`);
    ctx.body = { owners: await refusing(() => opened.client.owners().catch((err: unknown) => Promise.reject(err instanceof CrmFailure ? new CrmRefused(err.message) : err))) };
  });

  /** What the domain's last call received would be sent as (issue 81): the person looked for or made
   * and the activity with its facts, before anything is connected or sent. */
  router.get(`${path}/preview`, can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const crm = crmOf(ctx);
    const call = await c.calls.findOne({ domainId: domain._id, direction: { $ne: 'outbound' }, status: { $ne: null } }, { sort: { startedAt: -1, _id: -1 } });
    if (!call) {
      ctx.body = { callId: null, crm, objects: null, person: null, activity: null };
      return;
    }
    const { person, activity } = callItem(call, domain, publicUrl, call.recording?.status === 'stored' ? '(a link that plays it, made when the call is sent)' : null);
    ctx.body = { callId: call._id, crm, objects: { person: crm === 'hubspot' ? 'contact' : 'lead or contact', activity: ACTIVITY_OBJECTS[crm].call }, person, activity: { title: activity.title, body: activity.body, at: activity.at, durationSeconds: activity.durationSeconds, answered: activity.answered, from: activity.from, to: activity.to, campaign: activity.campaign } };
  });

  /** The stored credentials tried again (a broken connection that works is mended). */
  router.post(`${path}/test`, can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    ctx.body = await refusing(() => connections.test(domain._id, crmOf(ctx)));
  });

  /** A delivery (`call:12`, `form:7`) queued again. */
  router.post(`${path}/resend/:deliveryId`, can(RULES.manageDomain, 'crm.resend'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const crm = crmOf(ctx);
    const match = /^(call|form):(\d{1,15})$/.exec(ctx.params.deliveryId ?? '');
    if (!match) throw new ManageFailure(404, `No delivery ${ctx.params.deliveryId}: call:<id> or form:<id>`);
    const [kind, itemId] = [match[1] as 'call' | 'form', Number(match[2])];
    const call = kind === 'call' ? await c.calls.findOne({ _id: itemId, domainId: domain._id }, { projection: { personId: 1, direction: 1, status: 1 } }) : null;
    const form = kind === 'form' ? await c.forms.findOne({ _id: itemId, domainId: domain._id }, { projection: { personId: 1, spam: 1 } }) : null;
    const item = call ?? form;
    if (!item) throw new ManageFailure(404, `No ${kind} ${itemId} in this domain`);
    // Sent again only what the first send would send (issue 79).
    const refused = call ? callNotForCrm(call) : formNotForCrm(form!);
    if (refused) throw new ManageFailure(409, `${kind === 'call' ? 'Call' : 'Form'} ${itemId} is ${refused}`);
    const view = await connections.view(domain._id, crm);
    if (!view.connected) throw new ManageFailure(409, `${domain.name} is not connected to ${CRM_NAMES[crm]}: connect it first`);
    await queueDelivery(c, outbox, domain.accountId, { domainId: domain._id, crm, kind, itemId }, item.personId ?? null);
    auditing(ctx, { crm, delivery: `${kind}:${itemId}` });
    ctx.status = 202;
    ctx.body = { queued: `${kind}:${itemId}` };
  });
}
