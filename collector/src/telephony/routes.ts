// HTTP in for a PBX: where to forward a call, and what happened to calls and SMS.
import Router from '@koa/router';
import { callReport, routeQuery, smsReport } from '@ringtrail/shared';
import { bearerAuth } from '../http/bearer.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { queryOf } from '../http/query.ts';
import { parseTelephonyParams, telephonyEnvelope } from '../http/telephony-envelope.ts';
import type { Logger } from '../logger.ts';
import type { TelephonyService } from './service.ts';

export function telephonyRoutes(service: TelephonyService, apiKey: string | undefined, log: Logger): Router {
  const router = new Router({ prefix: '/telephony' });
  const guard = [telephonyEnvelope(log), bearerAuth(apiKey)];

  router.get('/route', ...guard, async (ctx) => {
    const q = parseTelephonyParams(routeQuery, queryOf(ctx));
    const now = new Date();
    ctx.body = await service.answerOf(q.tracking_number, await service.routeOf(q.tracking_number, q.code ?? null, now, q.caller_phone ?? null), now);
  });
  router.post('/calls', ...guard, parseBody, async (ctx) => {
    const callId = await service.recordCall(parseTelephonyParams(callReport, bodyOf(ctx.request)));
    ctx.body = { status: 'OK', callId };
  });
  router.post('/sms', ...guard, parseBody, async (ctx) => {
    const id = await service.recordSms(parseTelephonyParams(smsReport, bodyOf(ctx.request)));
    ctx.body = { status: 'OK', id };
  });
  return router;
}
