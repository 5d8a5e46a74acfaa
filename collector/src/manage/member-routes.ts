// HTTP in for an account's members (owners only) and its activity log (owners: all of it; admins:
// their domains'). An invitation or reset answers its link, which the owner copies to the person;
// when mail is configured it is mailed to them too (`mailed` in the answer).
import type Router from '@koa/router';
import type { Context } from 'koa';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { AuditLog, entryView } from '../team/audit.ts';
import type { AuditDoc, TeamCollections } from '../team/documents.ts';
import { countryOf, DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { withPhoneDisplay } from '../domains/phone-display.ts';
import { linkUrl, type NewLink } from '../team/invitations.ts';
import { memberChange, memberInvite, Members, memberView } from '../team/members.ts';
import { RULES } from '../team/roles.ts';
import { domainOf } from './settings-routes.ts';
import { usernameKey } from '../team/users.ts';
import { valid } from '../http/manage-validate.ts';
import { sendLinkMail } from '../team/link-mail.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { DomainCollections } from '../domains/documents.ts';

/** `publicUrl`: where people reach the collector; a link opens on its back end, whatever Host a request named. */
export function memberRoutes(router: Router, c: TeamCollections & DomainCollections, can: Can, outbox: Outbox | null, publicUrl: string): void {
  const backEnd = `${publicUrl}/manage/`;
  const linkView = (link: NewLink) => ({ id: link.id, url: linkUrl(backEnd, link.token), expiresAt: link.expiresAt.toISOString() });
  const members = new Members(c);
  const audit = new AuditLog(c);
  const accountIdOf = (ctx: Context) => memberOf(ctx).accountId;

  router.get('/account/members', can(RULES.manageMembers), async (ctx) => {
    const accountId = accountIdOf(ctx);
    ctx.body = {
      members: (await members.list(accountId)).map(memberView),
      invitations: (await members.links.pending(accountId)).map((i) => ({ id: i._id, username: i.username, role: i.role, domains: i.domains ?? null, createdBy: i.createdBy, expiresAt: i.expiresAt.toISOString() })),
    };
  });

  router.post('/account/members', can(RULES.manageMembers, 'member.invite'), parseBody, async (ctx) => {
    const invite = valid(memberInvite, bodyOf(ctx.request));
    const link = await members.invite(accountIdOf(ctx), memberOf(ctx)._id, invite);
    auditing(ctx, { member: usernameKey(invite.username), role: invite.role, ...(invite.domains ? { domains: invite.domains } : {}) });
    const view = linkView(link);
    if (outbox) await sendLinkMail(outbox, { kind: 'invitation', accountId: accountIdOf(ctx), to: usernameKey(invite.username), url: view.url, expiresAt: link.expiresAt, by: memberOf(ctx)._id });
    ctx.status = 201;
    ctx.body = { invitation: { ...view, mailed: Boolean(outbox) } };
  });

  router.patch('/account/members/:username', can(RULES.manageMembers, 'member.change'), parseBody, async (ctx) => {
    const change = valid(memberChange, bodyOf(ctx.request));
    const member = await members.change(accountIdOf(ctx), ctx.params.username!, change);
    auditing(ctx, { member: member._id, ...change });
    ctx.body = memberView(member);
  });

  router.delete('/account/members/:username', can(RULES.manageMembers, 'member.remove'), async (ctx) => {
    await members.remove(accountIdOf(ctx), ctx.params.username!);
    auditing(ctx, { member: usernameKey(ctx.params.username!) });
    ctx.status = 204;
  });

  /** A new link with which the member chooses a new password (7 days, like an invitation). */
  router.post('/account/members/:username/reset', can(RULES.manageMembers, 'member.reset'), async (ctx) => {
    const link = await members.resetLink(accountIdOf(ctx), ctx.params.username!, memberOf(ctx)._id);
    auditing(ctx, { member: usernameKey(ctx.params.username!) });
    const view = linkView(link);
    if (outbox) await sendLinkMail(outbox, { kind: 'password-reset', accountId: accountIdOf(ctx), to: usernameKey(ctx.params.username!), url: view.url, expiresAt: link.expiresAt });
    ctx.status = 201;
    ctx.body = { invitation: { ...view, mailed: Boolean(outbox) } };
  });

  router.delete('/account/invitations/:id', can(RULES.manageMembers, 'member.revoke'), async (ctx) => {
    const revoked = await members.links.revoke(accountIdOf(ctx), ctx.params.id!);
    if (!revoked) throw new ManageFailure(404, 'No such invitation waiting');
    auditing(ctx, { member: revoked.username });
    ctx.status = 204;
  });

  /** Newest first; `username`, `kind` filter; `before` (an entry's `at`) pages. */
  router.get('/account/activity', can(RULES.readActivity), async (ctx) => {
    const member = memberOf(ctx);
    const domains = member.role === 'owner' ? undefined : await visibleDomains(c, member.accountId, member.domains);
    const entries = await audit.list({ accountId: member.accountId, ...(domains ? { domains } : {}), ...activityFilters(ctx) });
    ctx.body = { entries: entries.map(entryView), ...(await numbersWritten(c, entries)) };
  });

  router.get('/domains/:domain/activity', can(RULES.readActivity), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const entries = await audit.list({ accountId: domain.accountId, domains: [domain.name], ...activityFilters(ctx) });
    ctx.body = { entries: entries.map(entryView), ...(await numbersWritten(c, entries)) };
  });
}

/** The entries' phone numbers as their domain's country writes them (`phoneDisplay`, as every answer
 * with numbers has it): `number`, `numbers`, `bought` and `destination` of their details,
 * keyed by the canonical form they are recorded in. */
async function numbersWritten(c: DomainCollections, entries: AuditDoc[]): Promise<{ phoneDisplay?: Record<string, string> }> {
  const byDomain = new Map<string, string[]>();
  for (const entry of entries) {
    const details = entry.details ?? {};
    const numbers = [details.number, details.destination, ...(Array.isArray(details.numbers) ? details.numbers : []), ...(Array.isArray(details.bought) ? details.bought : [])].filter((n): n is string => typeof n === 'string' && /^\d{4,15}$/.test(n));
    if (entry.domain && numbers.length) byDomain.set(entry.domain, [...(byDomain.get(entry.domain) ?? []), ...numbers]);
  }
  if (byDomain.size === 0) return {};
  const countries = new Map((await c.domains.find({ _id: { $in: [...byDomain.keys()] } }, { projection: { country: 1 } }).toArray()).map((d) => [d._id, countryOf(d)]));
  const shown = Object.assign({}, ...[...byDomain].map(([domain, numbers]) => withPhoneDisplay(numbers, countries.get(domain) ?? DEFAULT_COUNTRY, { byCanonical: true }).phoneDisplay));
  return Object.keys(shown).length ? { phoneDisplay: shown } : {};
}

/** An admin's domains: those given, or every domain of the account. */
async function visibleDomains(c: DomainCollections, accountId: string, given: string[] | undefined): Promise<string[]> {
  return given ?? (await c.domains.find({ accountId }, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
}

function activityFilters(ctx: Context): { username?: string; kind?: string; before?: Date } {
  const { username, kind, before } = ctx.query;
  const text = (value: unknown, name: string) => {
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || value.length > 254) throw new ManageFailure(400, `${name} must be one value of at most 254 characters`);
    return value;
  };
  const beforeText = text(before, 'before');
  const beforeDate = beforeText ? new Date(beforeText) : undefined;
  if (beforeDate && Number.isNaN(beforeDate.getTime())) throw new ManageFailure(400, 'before must be a date and time (an entry\'s at)');
  const who = text(username, 'username');
  const what = text(kind, 'kind');
  return { ...(who ? { username: usernameKey(who) } : {}), ...(what ? { kind: what } : {}), ...(beforeDate ? { before: beforeDate } : {}) };
}
