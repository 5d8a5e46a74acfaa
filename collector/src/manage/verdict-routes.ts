// HTTP in for a person's verdict on a call (telephony/verdicts.ts): the calls log's and the call
// page's Lead, Not a lead and Spam, and their undo.
import type Router from '@koa/router';
import { z } from 'zod';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { rowOf } from '../reports/calls-log.ts';
import { VERDICTS } from '../telephony/leads.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import { CallVerdicts } from '../telephony/verdicts.ts';
import { domainOf } from './settings-routes.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';

export const verdictBody = z.object({ verdict: z.enum(VERDICTS, { error: `must be one of ${VERDICTS.join(', ')}, or null to undo` }).nullable() });

export function verdictRoutes(router: Router, c: DomainCollections & TelephonyCollections, can: Can, writes: CallWrites): void {
  const verdicts = new CallVerdicts(c, writes);

  router.put('/domains/:domain/calls/:callId/verdict', can(RULES.giveVerdicts, 'call.verdict'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const { verdict } = valid(verdictBody, bodyOf(ctx.request));
    const callId = Number(ctx.params.callId);
    auditing(ctx, { callId, verdict });
    const call = Number.isSafeInteger(callId) ? await verdicts.set(domain._id, callId, verdict, memberOf(ctx)._id) : null;
    if (!call) throw new ManageFailure(404, `No call ${ctx.params.callId} in this domain`);
    ctx.body = rowOf(call, domain);
  });
}
