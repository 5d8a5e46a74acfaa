// HTTP in for a PBX: where to forward a call, and what happened to calls and SMS.
import Router from '@koa/router';
import { callReport, routeQuery, smsReport } from '@ringtrail/shared';
import { bearerAuth } from '../http/bearer.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { queryOf } from '../http/query.ts';
import { parseTelephonyParams, TelephonyFailure, telephonyEnvelope } from '../http/telephony-envelope.ts';
import { AUDIO_TYPES, audioType, MAX_RECORDING_BYTES, RecordingRefused } from '../recordings/store.ts';
import type { Recordings } from '../recordings/recordings.ts';
import type { Logger } from '../logger.ts';
import type { DialledNumbers, SentNumbers } from '../domains/dialled-numbers.ts';
import type { TelephonyService } from './service.ts';
import type { Middleware } from 'koa';
import type { Route } from './routing.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';

/** Call flows as a PBX meets them (flows/pbx-flow.ts makes them): `POST /telephony/flow`, and what
 * /telephony/route says of a number with a flow. */
export interface PbxFlows {
  /** The first phone a caller who presses nothing reaches now, for a number with a flow beyond a forward; null: no such flow. */
  reachedFirst(route: Route, caller: string | null): Promise<{ destination: string | null } | null>;
  routes(router: Router, guard: Middleware[]): void;
}

export function telephonyRoutes(service: TelephonyService, numbers: DialledNumbers, apiKey: string | undefined, recordings: Recordings, log: Logger, flows: PbxFlows | null = null): Router {
  const router = new Router({ prefix: '/telephony' });
  const guard = [telephonyEnvelope(log), bearerAuth(apiKey)];

  router.get('/route', ...guard, async (ctx) => {
    const query = queryOf(ctx);
    const parsed = parseTelephonyParams(routeQuery, query);
    const q = await numbers.read({ trackingNumber: parsed.tracking_number, callerPhone: parsed.caller_phone ?? null }, { trackingNumber: query.tracking_number, callerPhone: query.caller_phone });
    const now = new Date();
    const route = await service.routeOf(q.trackingNumber, parsed.code ?? null, now, q.callerPhone);
    const answer = await service.answerOf(q.trackingNumber, route, now);
    // A number with a call flow (issue 65): where a caller who presses nothing goes now; the PBX
    // walks the rest with POST /telephony/flow.
    const flowing = await flows?.reachedFirst(route, q.callerPhone);
    ctx.body = flowing ? { ...answer, destination: flowing.destination && nationalOf(flowing.destination, countryOf(route.domain!)), flow: true } : answer;
  });
  flows?.routes(router, guard);
  router.post('/calls', ...guard, parseBody, async (ctx) => {
    const body = bodyOf(ctx.request);
    const { recordingUrl, ...report } = parseTelephonyParams(callReport, body);
    // A later report of a call may leave its start out (a call flow's PBX never gave one: the flow door recorded it).
    const startDate = report.startDate ?? (await service.callByRef(report.callRef))?.startedAt;
    if (!startDate) throw new TelephonyFailure(400, 'Missing parameter startDate: only a later report of a call already reported may leave it out');
    // No status: the call goes on (ringing, talking); a later report of its callRef ends it.
    const callId = await service.recordCall(await numbers.read({ ...report, startDate, status: report.status ?? null }, body as SentNumbers), new Date(), undefined, { callEnded: report.status !== undefined });
    const call = recordingUrl && (await service.callByRef(report.callRef));
    if (call) await recordings.ready(call, `call-${call._id}`, { duration: null, channels: null }, { url: recordingUrl });
    ctx.body = { status: 'OK', callId };
  });

  // Ours: the call's recording itself (WAV or MP3), streamed into the database; once.
  router.post('/calls/:callId/recording', ...guard, async (ctx) => {
    const callId = Number(ctx.params.callId);
    const call = Number.isSafeInteger(callId) ? await service.callById(callId) : null;
    if (!call) throw new TelephonyFailure(404, `No call ${ctx.params.callId}`);
    const type = audioType(ctx.get('content-type'));
    if (!type) throw new TelephonyFailure(400, `Content-Type must be audio: ${AUDIO_TYPES.join(', ')}`);
    if (Number(ctx.get('content-length') || 0) > MAX_RECORDING_BYTES) throw new TelephonyFailure(400, `A recording is at most ${MAX_RECORDING_BYTES / 1024 / 1024} MB`);
    const stored = await recordings.upload(call, ctx.req, type).catch((err: Error) => {
      throw err instanceof RecordingRefused ? new TelephonyFailure(400, `The recording is refused: ${err.message}`) : err;
    });
    if (!stored) throw new TelephonyFailure(400, 'The call has a recording already');
    ctx.body = { status: 'OK', callId, size: stored.size };
  });
  router.post('/sms', ...guard, parseBody, async (ctx) => {
    const body = bodyOf(ctx.request);
    const id = await service.recordSms(await numbers.read(parseTelephonyParams(smsReport, body), body as SentNumbers));
    ctx.body = { status: 'OK', id };
  });
  return router;
}
