// HTTP in for a member's softphone (issue 82): the credentials their browser registers with the SIP
// edge, made for a few hours and never stored (softphone/sip-credentials.ts). Members who answer
// calls (owners, admins, agents); analysts take no calls.
import type Router from '@koa/router';
import { z } from 'zod';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import { memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import { sipCredentials, type SipEdge } from '../softphone/sip-credentials.ts';

export const credentialsBody = z.object({ provider: z.literal('sip', { error: 'must be sip' }).default('sip').describe('The softphone\'s provider: `sip`, the SIP edge (the default)') }).strict();

export function softphoneRoutes(router: Router, can: Can, edge: SipEdge | null): void {
  router.post('/softphone/credentials', can(RULES.answerLeads), parseBody, async (ctx) => {
    valid(credentialsBody, bodyOf(ctx.request));
    if (!edge) throw new ManageFailure(409, 'The softphone is off on this server: set SOFTPHONE_WS_URI and SOFTPHONE_SECRET (the SIP edge\'s address, and the secret it shares), then restart');
    // A password for a few hours: no cache keeps it.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = sipCredentials(edge, memberOf(ctx)._id);
  });
}
