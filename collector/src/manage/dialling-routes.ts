// HTTP in for the account's dialling rules (dialling/, issue 79): owners only, since they decide
// what the account's bill may carry; every change in the activity log.
import type Router from '@koa/router';
import { DiallingPolicies, type DiallingCollections } from '../dialling/policies.ts';
import { diallingAfter, diallingBody, diallingView } from '../dialling/settings.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';

export function diallingRoutes(router: Router, c: DiallingCollections, can: Can): void {
  const policies = new DiallingPolicies(c);
  const viewOf = async (accountId: string) => {
    const account = await c.accounts.findOne({ _id: accountId }, { projection: { dialling: 1 } });
    return diallingView(account?.dialling, (await policies.of(accountId)).countries);
  };

  router.get('/account/dialling', can(RULES.manageAccount), async (ctx) => {
    ctx.body = await viewOf(memberOf(ctx).accountId);
  });

  router.put('/account/dialling', can(RULES.manageAccount, 'dialling.change'), parseBody, async (ctx) => {
    const accountId = memberOf(ctx).accountId;
    const body = valid(diallingBody, bodyOf(ctx.request));
    const account = await c.accounts.findOne({ _id: accountId }, { projection: { dialling: 1 } });
    const dialling = diallingAfter(account?.dialling, body);
    await c.accounts.updateOne({ _id: accountId }, { $set: { dialling } });
    auditing(ctx, dialling as Record<string, unknown>);
    ctx.body = await viewOf(accountId);
  });
}
