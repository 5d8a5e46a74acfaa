// HTTP in for a PBX: where to forward a call, and what happened to calls and SMS.
import Router from '@koa/router';
import { callReport, routeQuery, smsReport } from '@ringtrail/shared';
import { bearerAuth } from '../http/bearer.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { queryOf } from '../http/query.ts';
import { parseTelephonyParams, telephonyEnvelope } from '../http/telephony-envelope.ts';
import type { Logger } from '../logger.ts';
import type { DialledNumbers, SentNumbers } from '../domains/dialled-numbers.ts';
import type { TelephonyService } from './service.ts';

export function telephonyRoutes(service: TelephonyService, numbers: DialledNumbers, apiKey: string | undefined, log: Logger): Router {
  const router = new Router({ prefix: '/telephony' });
  const guard = [telephonyEnvelope(log), bearerAuth(apiKey)];

  router.get('/route', ...guard, async (ctx) => {
    const query = queryOf(ctx);
    const parsed = parseTelephonyParams(routeQuery, query);
    const q = await numbers.read({ trackingNumber: parsed.tracking_number, callerPhone: parsed.caller_phone ?? null }, { trackingNumber: query.tracking_number, callerPhone: query.caller_phone });
    const now = new Date();
    ctx.body = await service.answerOf(q.trackingNumber, await service.routeOf(q.trackingNumber, parsed.code ?? null, now, q.callerPhone), now);
  });
  router.post('/calls', ...guard, parseBody, async (ctx) => {
    const body = bodyOf(ctx.request);
    const report = parseTelephonyParams(callReport, body);
    // No status: the call goes on (ringing, talking); a later report of its callRef ends it.
    const callId = await service.recordCall(await numbers.read({ ...report, status: report.status ?? null }, body as SentNumbers));
    ctx.body = { status: 'OK', callId };
  });
  router.post('/sms', ...guard, parseBody, async (ctx) => {
    const body = bodyOf(ctx.request);
    const id = await service.recordSms(await numbers.read(parseTelephonyParams(smsReport, body), body as SentNumbers));
    ctx.body = { status: 'OK', id };
  });
  return router;
}
