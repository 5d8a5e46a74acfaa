// HTTP in for a call's analysis (issue 66): a person corrects an outcome the language model gave.
// Their word wins (the model never reads the call again) and the call's history keeps it, as with
// tags and values. Who gives verdicts may correct.
import type Router from '@koa/router';
import { z } from 'zod';
import { OUTCOMES, VERDICTS } from '../analysis/answer.ts';
import type { DomainCollections } from '../domains/documents.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import { domainOf } from './settings-routes.ts';
import { withEntries } from '../rules/marks.ts';

export const outcomeBody = z.object({ answer: z.enum(VERDICTS, { error: `must be one of ${VERDICTS.join(', ')}` }).describe('yes, no or unknown') }).strict();

export function analysisRoutes(router: Router, c: DomainCollections & TelephonyCollections, can: Can, writes: CallWrites): void {
  router.put('/domains/:domain/calls/:callId/analysis/outcomes/:name', can(RULES.giveVerdicts, 'call.outcome'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const name = ctx.params.name!;
    if (!(OUTCOMES as readonly string[]).includes(name)) throw new ManageFailure(404, `No outcome ${name}: one of ${OUTCOMES.join(', ')}`);
    const { answer } = valid(outcomeBody, bodyOf(ctx.request));
    const callId = Number(ctx.params.callId);
    const call = Number.isSafeInteger(callId) ? await c.calls.findOne({ _id: callId, domainId: domain._id }, { projection: { _id: 1 } }) : null;
    if (!call) throw new ManageFailure(404, `No call ${ctx.params.callId} in this domain`);
    const by = memberOf(ctx)._id;
    const now = new Date();
    const after = await writes.change(callId, (stored) => {
      if (stored.analysis?.status !== 'ready') return null;
      const was = stored.analysis.outcomes?.[name]?.answer ?? 'unknown';
      return {
        analysis: { ...stored.analysis, outcomes: { ...stored.analysis.outcomes, [name]: { answer, by } } },
        history: withEntries(stored.history, [{ at: now, by, what: `${name} ${answer} (the model said ${was})` }]),
      };
    });
    if (!after) throw new ManageFailure(409, 'The call has no analysis to correct');
    auditing(ctx, { callId, outcome: name, answer });
    ctx.body = { outcome: name, ...after.analysis!.outcomes![name] };
  });
}
