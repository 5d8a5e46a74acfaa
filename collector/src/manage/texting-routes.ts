// HTTP in for a domain's texting inbox (texting/, issue 68): its conversations (filtered, paged), a
// thread, a reply from the tracking number, who answers it and its reading; the answer to HELP and
// the saved replies. Every member reads; agents and above reply and are assigned; each text sent is
// in the activity log.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { DiallingRefused } from '../dialling/refused.ts';
import type { DomainCollections } from '../domains/documents.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, refusedAs400 } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import type { TeamCollections } from '../team/documents.ts';
import { maySee, RULES, whoMay } from '../team/roles.ts';
import type { Conversations } from '../texting/conversations.ts';
import type { TextSender } from '../texting/sender.ts';
import { TextRefused } from '../texting/sender.ts';
import { MAX_TEXT_LENGTH } from '../texting/segments.ts';
import { textingOf, textingSettingsBody } from '../texting/settings.ts';
import { carrierCall } from './carrier-routes.ts';
import { domainOf } from './settings-routes.ts';

const listQuery = z.object({
  unread: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  mine: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  page: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').max(10_000, 'must be at most 10000').default(1),
  limit: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100, 'must be at most 100').default(50),
});

export const replyBody = z.object({ body: z.string().trim().min(1, 'must not be empty').max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`).describe('The text, sent from the tracking number the person wrote to') }).strict();

export const conversationChange = z
  .object({
    assignee: z.string().trim().max(254).nullable().optional().describe('The member who answers it (their username); null: nobody'),
    read: z.literal(true).optional().describe('Read now: its unread count back to 0'),
  })
  .strict();

export function textingRoutes(router: Router, c: DomainCollections & TeamCollections, can: Can, conversations: Conversations, sender: TextSender): void {
  const path = '/domains/:domain/conversations';
  const conversationOf = async (ctx: Context) => {
    const domain = await domainOf(c, ctx);
    const doc = await conversations.find(domain, ctx.params.conversationId ?? '');
    if (!doc) throw new ManageFailure(404, `No conversation ${ctx.params.conversationId} in ${domain.name}`);
    return { domain, doc };
  };

  router.get(path, can(RULES.readTexts), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const q = valid(listQuery, ctx.query);
    ctx.body = await conversations.list(domain, { unread: q.unread === 'true', ...(q.mine === 'true' ? { assignee: memberOf(ctx)._id } : {}), page: q.page, limit: q.limit });
  });

  router.get(`${path}/:conversationId`, can(RULES.readTexts), async (ctx) => {
    const { domain, doc } = await conversationOf(ctx);
    ctx.body = await conversations.thread(domain, doc);
  });

  router.post(`${path}/:conversationId/messages`, can(RULES.answerLeads, 'text.send'), parseBody, async (ctx) => {
    const { domain, doc } = await conversationOf(ctx);
    const { body } = valid(replyBody, bodyOf(ctx.request));
    const sent = await refusedAs400(() => carrierCall(() => sender.send(doc, body, memberOf(ctx)._id)), TextRefused, DiallingRefused);
    auditing(ctx, { conversation: doc._id, text: sent._id, segments: sent.segments });
    ctx.status = 201;
    const { _id, conversationId: _c, domainId: _d, ...text } = sent;
    ctx.body = { id: _id, ...text, domain: domain.name };
  });

  router.put(`${path}/:conversationId`, can(RULES.readTexts, 'conversation.change'), parseBody, async (ctx) => {
    const { domain, doc } = await conversationOf(ctx);
    const change = valid(conversationChange, bodyOf(ctx.request));
    if (change.assignee !== undefined) {
      // Assigning is answering: an analyst only reads.
      if (!RULES.answerLeads.roles.includes(memberOf(ctx).role as never)) throw new ManageFailure(403, `Only ${whoMay(RULES.answerLeads)} may assign conversations`);
      if (change.assignee !== null) {
        const member = await c.users.findOne({ _id: change.assignee, accountId: domain.accountId });
        if (!member || !maySee(member, domain.name) || !RULES.answerLeads.roles.includes(member.role as never)) throw new ManageFailure(400, `assignee: ${change.assignee} is no owner, admin or agent of the account who sees ${domain.name}`);
      }
    }
    const changed = await conversations.change(doc, change);
    auditing(ctx, { conversation: doc._id, ...change });
    ctx.body = await conversations.shown(domain, changed);
  });

  router.get('/domains/:domain/texting', can(RULES.readTexts), async (ctx) => {
    ctx.body = textingOf(await domainOf(c, ctx));
  });

  router.put('/domains/:domain/texting', can(RULES.manageDomain, 'texting.settings'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const texting = valid(textingSettingsBody, bodyOf(ctx.request));
    await c.domains.updateOne({ _id: domain._id }, { $set: { texting } });
    auditing(ctx, { helpText: texting.helpText !== null, savedReplies: texting.savedReplies.length });
    ctx.body = texting;
  });
}
