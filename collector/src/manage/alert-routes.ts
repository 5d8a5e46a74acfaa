// HTTP in for a member's own alert choices (alerts/choices.ts): per domain they see, which call
// alerts they get (at once, hourly, or not), the warnings and the summaries. One's own preference,
// not a setting others share: not in the audit trail.
import type Router from '@koa/router';
import { bodyOf, parseBody } from '../http/body.ts';
import { AlertChoicesStore, alertChoicesBody } from '../alerts/choices.ts';
import { memberOf, type Can } from '../team/access.ts';
import { domainsOfAccount } from './domains.ts';
import { maySee, RULES } from '../team/roles.ts';
import { domainOf } from './settings-routes.ts';
import { valid } from '../http/manage-validate.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { AlertCollections } from '../alerts/documents.ts';

export function alertRoutes(router: Router, c: TeamCollections & DomainCollections & AlertCollections, can: Can, mailConfigured: boolean): void {
  const store = new AlertChoicesStore(c);

  router.get('/alerts', can(RULES.member), async (ctx) => {
    const member = memberOf(ctx);
    const domains = (await domainsOfAccount(c, member.accountId)).filter((domain) => maySee(member, domain._id));
    ctx.body = { mail: mailConfigured, domains: await Promise.all(domains.map(async (domain) => ({ domain: domain._id, choices: await store.of(member, domain._id) }))) };
  });

  router.put('/domains/:domain/alerts', can(RULES.member), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const change = valid(alertChoicesBody, bodyOf(ctx.request));
    ctx.body = { domain: domain._id, choices: await store.set(memberOf(ctx), domain._id, change) };
  });
}
