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
import type { TextingCollections } from '../texting/documents.ts';
import type { CarrierConnections } from '../carriers/connections.ts';
import type { TextSender } from '../texting/sender.ts';
import { TextRefused } from '../texting/sender.ts';
import { MAX_TEXT_LENGTH } from '../texting/segments.ts';
import { helpTextOf, textingOf, textingSettingsBody } from '../texting/settings.ts';
import { MAX_NAME_LENGTH } from '../people/person-name.ts';
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
    name: z.string().trim().min(1, 'must not be empty').max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`).nullable().optional().describe("Ours (issue 81): the texter's name, kept on their person (forms never overwrite it); null: forgotten"),
  })
  .strict();

export const noteBody = z.object({ text: z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2000 characters').describe('The note, for the team only: never texted') }).strict();

export function textingRoutes(router: Router, c: DomainCollections & TeamCollections & TextingCollections, can: Can, conversations: Conversations, sender: TextSender, carriers: Pick<CarrierConnections, 'carrierOf'>): void {
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
    if (change.name !== undefined) {
      if (!RULES.answerLeads.roles.includes(memberOf(ctx).role as never)) throw new ManageFailure(403, `Only ${whoMay(RULES.answerLeads)} may name people`);
      if (doc.personId === null || doc.phone === null) throw new ManageFailure(400, 'name: this texter was erased, or is no person of the domain');
      await conversations.name(doc, change.name, memberOf(ctx)._id);
    }
    if (change.assignee !== undefined) {
      // Assigning is answering: an analyst only reads.
      if (!RULES.answerLeads.roles.includes(memberOf(ctx).role as never)) throw new ManageFailure(403, `Only ${whoMay(RULES.answerLeads)} may assign conversations`);
      if (change.assignee !== null) {
        const member = await c.users.findOne({ _id: change.assignee, accountId: domain.accountId });
        if (!member || !maySee(member, domain.name) || !RULES.answerLeads.roles.includes(member.role as never)) throw new ManageFailure(400, `assignee: ${change.assignee} is no owner, admin or agent of the account who sees ${domain.name}`);
      }
    }
    const changed = await conversations.change(doc, change);
    // The name is the person's to keep: the log says it was named, not what.
    const { name, ...logged } = change;
    auditing(ctx, { conversation: doc._id, ...logged, ...(name !== undefined ? { named: name !== null } : {}) });
    ctx.body = await conversations.shown(domain, changed);
  });

  // An MMS's picture, read from the carrier with the account's credentials (its address needs them,
  // and the back end's pages show no image from elsewhere): only a text of this conversation's.
  router.get(`${path}/:conversationId/texts/:textId/media/:index`, can(RULES.readTexts), async (ctx) => {
    const { doc } = await conversationOf(ctx);
    const text = await c.textMessages.findOne({ _id: ctx.params.textId ?? '', conversationId: doc._id });
    const media = text?.media?.[Number(ctx.params.index)];
    if (!media) throw new ManageFailure(404, `No picture ${ctx.params.index} on text ${ctx.params.textId}`);
    const carrier = await carrierCall(() => carriers.carrierOf(doc.accountId));
    if (!carrier) throw new ManageFailure(409, 'No carrier is connected to the account: its pictures cannot be read');
    const got = await carrierCall(() => carrier.media(media.url));
    // Shown as an image only when it is one; anything else is downloaded, never run as a page.
    const image = /^image\/(png|jpeg|gif|webp)$/.test(got.contentType);
    ctx.set('Content-Type', image ? got.contentType : 'application/octet-stream');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'private, max-age=3600');
    if (!image) ctx.set('Content-Disposition', 'attachment');
    ctx.body = got.body;
  });

  router.post(`${path}/:conversationId/notes`, can(RULES.answerLeads, 'conversation.note'), parseBody, async (ctx) => {
    const { doc } = await conversationOf(ctx);
    const { text } = valid(noteBody, bodyOf(ctx.request));
    const note = await conversations.note(doc, text, memberOf(ctx)._id);
    auditing(ctx, { conversation: doc._id, note: note.id });
    ctx.status = 201;
    ctx.body = note;
  });

  router.get('/domains/:domain/texting', can(RULES.readTexts), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const accountName = (await c.accounts.findOne({ _id: domain.accountId }))?.name ?? domain.name;
    // Ours: what HELP is answered with now, and the business name used where the domain set none.
    ctx.body = { ...textingOf(domain), defaultBusinessName: accountName, helpTextSent: helpTextOf(domain, accountName) };
  });

  router.put('/domains/:domain/texting', can(RULES.manageDomain, 'texting.settings'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const texting = valid(textingSettingsBody, bodyOf(ctx.request));
    await c.domains.updateOne({ _id: domain._id }, { $set: { texting } });
    auditing(ctx, { helpText: texting.helpText !== null, businessName: texting.businessName, savedReplies: texting.savedReplies.length, textBack: texting.textBack.enabled });
    ctx.body = texting;
  });
}
