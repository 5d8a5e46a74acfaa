// HTTP in for read-only report links: made, listed and revoked by an owner or admin under
// /manage/api; opened by anyone at /shared/<token> (the back end's page, in its shared mode), whose
// report is /shared/<token>/report. A revoked or unknown link answers 404; a link with a password
// answers its report once the browser typed it (a cookie scoped to the link).
import Router from '@koa/router';
import type { Context } from 'koa';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, manageEnvelope } from '../http/manage-envelope.ts';
import type { Logger } from '../logger.ts';
import { reportRange } from '../reports/day-range.ts';
import { overviewWithPrevious } from '../reports/overview.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import type { SharedLinkDoc, TeamCollections } from '../team/documents.ts';
import { MAX_PASSWORD } from '../team/password-rules.ts';
import { managePage } from './pages.ts';
import { RULES } from '../team/roles.ts';
import { domainOf } from './settings-routes.ts';
import { sharedLinkBody, SharedLinks, sharedLinkView, sharedUrl } from '../team/shared-links.ts';
import type { SignInLimit } from '../team/sign-in-limit.ts';
import { valid } from '../http/manage-validate.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';

/** `publicUrl`: where people reach the collector; a shared link starts with it, whatever Host a request named. */
export function sharedLinkRoutes(router: Router, c: TeamCollections & DomainCollections, can: Can, publicUrl: string): void {
  const links = new SharedLinks(c);

  router.get('/domains/:domain/shared-links', can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    ctx.body = { links: (await links.list(domain._id)).map(sharedLinkView) };
  });

  router.post('/domains/:domain/shared-links', can(RULES.manageDomain, 'shared-link.create'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const { link, token } = await links.create(domain, memberOf(ctx)._id, valid(sharedLinkBody, bodyOf(ctx.request)));
    auditing(ctx, { id: link._id, label: link.label, passwordProtected: Boolean(link.passwordHash) });
    ctx.status = 201;
    ctx.body = { ...sharedLinkView(link), url: sharedUrl(publicUrl, token) };
  });

  router.delete('/domains/:domain/shared-links/:id', can(RULES.manageDomain, 'shared-link.revoke'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const revoked = await links.revoke(domain._id, ctx.params.id!);
    if (!revoked) throw new ManageFailure(404, 'No such shared link of this domain');
    auditing(ctx, { id: revoked._id, label: revoked.label });
    ctx.status = 204;
  });
}

const NOT_FOUND = 'This shared link does not exist, or was revoked';

/** The pages and report of /shared/<token>, open to anyone who has the link. */
export function sharedPageRoutes(c: TeamCollections & DomainCollections & ReportCollections, limit: SignInLimit, log: Logger): Router {
  const links = new SharedLinks(c);
  const router = new Router({ strict: true });
  const cookieOf = (link: SharedLinkDoc) => `rt_shared_${link._id}`;
  const linkOf = async (ctx: Context) => {
    const link = await links.of(ctx.params.token!);
    if (!link) throw new ManageFailure(404, NOT_FOUND);
    return link;
  };
  router.use('/shared/:token', async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    // The link is the secret: no page of it tells another site where it came from, nor is indexed.
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Robots-Tag', 'noindex, nofollow');
    await next();
  });

  router.get('/shared/:token', async (ctx) => {
    const link = await links.of(ctx.params.token!);
    managePage(ctx, link ? 200 : 404);
  });

  router.get('/shared/:token/report', manageEnvelope(log), async (ctx) => {
    const link = await linkOf(ctx);
    if (!links.unlocked(link, ctx.cookies.get(cookieOf(link)))) throw new ManageFailure(401, 'This report asks for its password');
    const domain = await c.domains.findOne({ _id: link.domainId });
    if (!domain) throw new ManageFailure(404, NOT_FOUND);
    const { from, to, totals, days, sources, keywords, campaigns, landingPages, currency, previous } = await overviewWithPrevious(c, domain, reportRange(ctx.query, domain.timeZone));
    ctx.body = { domain: domain.name, label: link.label, timeZone: domain.timeZone, country: domain.country, from, to, currency, totals, days, sources, keywords, campaigns, landingPages, previous };
    // An opening is a report shown, never its password prompt; a page showing it already asks its
    // other dates with `opening=0`.
    if (ctx.query.opening !== '0') await links.opened(link);
  });

  router.post('/shared/:token/unlock', manageEnvelope(log), parseBody, async (ctx) => {
    const link = await linkOf(ctx);
    const { password } = bodyOf(ctx.request);
    if (typeof password !== 'string' || !password || password.length > MAX_PASSWORD) throw new ManageFailure(400, 'password is required');
    const right = await limit.attempt(ctx.ip, `shared:${link._id}`, async () => ((await links.checkPassword(link, password)) ? true : null));
    if (!right) throw new ManageFailure(401, 'Wrong password');
    ctx.cookies.set(cookieOf(link), links.pass(link), { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: `/shared/${ctx.params.token}`, maxAge: 12 * 3600_000, overwrite: true });
    ctx.status = 204;
  });
  return router;
}
