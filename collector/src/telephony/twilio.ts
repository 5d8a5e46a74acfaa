// A Twilio-compatible adapter: Twilio's webhooks in, TwiML out, mapped onto the telephony service.
// Point a Twilio number's voice URL at /telephony/twilio/voice, its call status callback at
// /telephony/twilio/status and its messaging URL at /telephony/twilio/sms. The voice answer's
// <Dial action> brings the forwarded leg's true outcome to /dial (and dials the no-answer redirect);
// its <Number url> asks /whisper what to say to whoever answers. Relative URLs: Twilio resolves them
// against the voice URL, so they hold behind a proxy's path prefix too. A number with a call flow is
// answered by its flow (flows/twilio-flow.ts), whose callbacks this router serves behind the same guards.
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import twilio from 'twilio';
import { recordingPlan } from '../domains/recording-settings.ts';
import type { Recordings } from '../recordings/recordings.ts';
import { normalizePhone } from '@ringtrail/shared';
import type { CallDoc, TextMedia } from './documents.ts';
import { SecretUnreadable, type Signer } from '../carriers/connections.ts';
import { collectorAddress } from '../http/collector-address.ts';
import { parseBody } from '../http/body.ts';
import { TelephonyFailure, telephonyEnvelope } from '../http/telephony-envelope.ts';
import type { Logger } from '../logger.ts';
import type { TelephonyService } from './service.ts';
import { dialOutcome, forward, OUTCOMES, params, RING_SECONDS, required, storedReport, minutesOf, xml, type Params } from './twilio-words.ts';
import type { Route } from './routing.ts';

export interface TwilioOptions {
  /** TWILIO_AUTH_TOKEN: the single-tenant shortcut; every request must carry a valid X-Twilio-Signature. */
  authToken?: string;
  /** Who may sign a request of this AccountSid for the number called (carriers/connections.ts): the
   * connected account that owns the number, whose token checks the signature first. */
  signerFor?: (accountSid: string, calledNumber: string | null) => Promise<Signer>;
  /** The public base URL Twilio calls (`https://calls.example.com`); the signature covers the full URL. */
  publicUrl?: string;
}

const GSM_BASIC = /^[\n\r\x20-\x7E£¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉÄÖÑÜ§¿äöñüà€]*$/;

/** The guards of the adapter's routes, for the call flows' callbacks (flows/twilio-flow.ts). */
export interface TwilioGuards {
  guard: (numberOf: NumberOf) => Middleware[];
  /** The number of the call a callback's CallSid names (the signer's), or of `To`. */
  ofCall: NumberOf;
  /** The number of the call `?call=` names. */
  ofWhisper: NumberOf;
  byRef: (ctx: Context, callSid: string) => Promise<CallDoc | null>;
  byId: (ctx: Context) => Promise<CallDoc | null>;
}

/** Call flows as the voice webhook meets them (flows/twilio-flow.ts makes them): a number's flow, and
 * the flows' own callbacks. */
export interface TwilioFlows {
  /** The flow of the route's number, or null: today's forward. */
  flowOf(route: Route): Promise<{ decidesBlocked: boolean; started(callId: number, callerId: string | null): Promise<string> } | null>;
  routes(router: Router, guards: TwilioGuards): void;
  /** A <Record> of the call's flow made a recording: a voicemail, even when the caller hung up before its action came. */
  voicemailRecorded(call: CallDoc, seconds: number | null): Promise<void>;
}

/** More of Twilio's callbacks, served behind the same guards (texting/: a sent text's status). */
export interface TwilioCallbacks {
  routes(router: Router, guards: TwilioGuards): void;
}

export function twilioRoutes(service: TelephonyService, recordings: Recordings, options: TwilioOptions, log: Logger, flows: TwilioFlows | null = null, more: TwilioCallbacks[] = []): Router {
  const router = new Router({ prefix: '/telephony/twilio' });
  // The number a request is about, whose account alone may sign it: the number called (`To`) of a new
  // call or text; a call's own number for the callbacks of a call known here (its `To` could name any).
  const called = (p: Params) => normalizePhone(p.To ?? '');
  // The call a callback is about, read once a request: the signature check reads it first.
  const callOf = async (ctx: Context, find: () => Promise<CallDoc | null>): Promise<CallDoc | null> => {
    if (!('call' in ctx.state)) ctx.state.call = await find();
    return ctx.state.call as CallDoc | null;
  };
  const byRef = (ctx: Context, callSid: string) => callOf(ctx, () => service.callByRef(callSid));
  const byId = (ctx: Context) => callOf(ctx, () => service.callById(Number(ctx.query.call)));
  const ofCall = async (p: Params, ctx: Context) => (await byRef(ctx, p.CallSid ?? ''))?.trackingNumber ?? called(p);
  const ofWhisper = async (_: Params, ctx: Context) => (await byId(ctx))?.trackingNumber ?? null;
  const guard = (numberOf: NumberOf, untracked: Untracked = nothingWritten) => [telephonyEnvelope(log), parseBody, twilioSignature(options, numberOf, untracked, log)];
  // The account's token cannot be read (SECRETS_KEY changed): the request's signature cannot be
  // checked, so it is never answered with a Dial (issue 70: anyone could have sent it). The caller
  // hears the number is not in service; the carrier card and the warning mail say why, and the
  // calls go through again once the former key is back or the account is connected again.
  const cannotCheck: Untracked = async (ctx) => {
    const twiml = new twilio.twiml.VoiceResponse();
    twiml.say('This number is not in service.');
    xml(ctx, twiml);
  };
  const guards: TwilioGuards = { guard: (numberOf) => guard(numberOf), ofCall, ofWhisper, byRef, byId };
  flows?.routes(router, guards);
  for (const callbacks of more) callbacks.routes(router, guards);

  router.post('/voice', ...guard(called, cannotCheck), async (ctx) => {
    const p = params(ctx);
    const trackingNumber = normalizePhone(p.To ?? '') ?? '';
    const code = p.Digits || null;
    const now = wholeSecond(new Date());
    const route = await service.routeOf(trackingNumber, code, now, normalizePhone(p.From ?? ''));
    const twiml = new twilio.twiml.VoiceResponse();
    const report = () => ({ ...reportOf(p, trackingNumber, now), code: code ?? undefined });
    // The number's call flow (flows/, issue 65); none: today's forward.
    const flow = route.number && route.reason !== 'code-required' ? await flows?.flowOf(route) : null;
    if (route.reason === 'code-required') {
      const gather = twiml.gather({ numDigits: route.number!.codeDigits, action: ctx.path, method: 'POST', timeout: 8 });
      gather.say('Please enter the code shown next to the number.');
      twiml.say('No code was entered. Goodbye.');
    } else if (route.reason === 'unknown-number') {
      twiml.say('This number is not in service.');
    } else if (route.reason === 'blocked' && !flow?.decidesBlocked) {
      await service.recordCall({ ...report(), status: 'CALLER_PHONE_BLACKLISTED' }, new Date(), route);
      twiml.reject();
    } else if (flow) {
      const callId = await service.recordCall({ ...report(), status: null }, new Date(), route);
      xml(ctx, await flow.started(callId, p.From || null));
      return;
    } else {
      const callId = await service.recordCall({ ...report(), status: null }, new Date(), route);
      if (route.destination) {
        const plan = recordingPlan(route.domain, true, route.offline);
        if (plan?.announcement) twiml.say({ language: plan.language }, plan.announcement);
        forward(twiml, { callId, destination: route.destination, callerId: p.From || null, seconds: route.redirect?.afterSeconds ?? RING_SECONDS, plan, whisper: Boolean(route.domain?.whisper) });
      } else {
        twiml.say('This number is not in service.');
      }
    }
    xml(ctx, twiml);
  });

  // The forwarded leg ended: its outcome, or the redirect when nobody answered and the call's route has one.
  router.post('/dial', ...guard(ofCall), async (ctx) => {
    const p = params(ctx);
    const twiml = new twilio.twiml.VoiceResponse();
    const known = await byRef(ctx, required(p, 'CallSid'));
    const redirectLeg = ctx.query.leg === 'redirect';
    const dialStatus = p.DialCallStatus ?? '';
    if (known && !redirectLeg && known.redirect && (dialStatus === 'no-answer' || dialStatus === 'busy')) {
      await service.recordCall({ ...storedReport(known), isRedirect: true });
      // The leg that answers is the one recorded: the redirect's, when the first did not answer.
      const plan = await service.recordingPlanFor(known);
      forward(twiml, { callId: known._id, destination: known.redirect.destination, callerId: p.From || null, seconds: RING_SECONDS, plan, whisper: await service.whispers(known.domainId), action: 'dial?leg=redirect' });
    } else if (known) {
      await service.recordCall(dialOutcome(known, p, redirectLeg));
    }
    xml(ctx, twiml);
  });

  // <Dial recordingStatusCallback>: the answered leg's recording is ready at RecordingUrl (WAV there,
  // Twilio's default). Fetched into the database through the outbox (recordings/fetcher.ts) with the
  // account's SID and auth token; a call unknown here, or a recording already taken, is ignored.
  router.post('/recording', ...guard(ofCall), async (ctx) => {
    const p = params(ctx);
    const call = await byRef(ctx, required(p, 'CallSid'));
    if (call && p.RecordingStatus === 'completed' && p.RecordingUrl && p.RecordingSid) {
      const info = { duration: Number(p.RecordingDuration ?? '') || null, channels: Number(p.RecordingChannels ?? '') || null };
      await recordings.ready(call, p.RecordingSid, info, { url: p.RecordingUrl, ...(p.AccountSid ? { twilioAccountSid: p.AccountSid } : {}) });
      if (call.flowId && !call.voicemail && p.RecordingSource === 'RecordVerb') await flows?.voicemailRecorded(call, info.duration);
    }
    xml(ctx, new twilio.twiml.VoiceResponse());
  });

  // Said to whoever answers, before the caller is put through.
  router.post('/whisper', ...guard(ofWhisper), async (ctx) => {
    const twiml = new twilio.twiml.VoiceResponse();
    const sentence = await service.whisperFor(await byId(ctx));
    if (sentence) twiml.say(sentence);
    xml(ctx, twiml);
  });

  // The inbound call ended. Its outcome stands only for a call that reached no <Dial> (or whose
  // <Dial action> never came): the dialled leg's outcome is the truer one. Either way it brings the
  // call's whole length, which Twilio bills. A call in a flow is `completed` whatever happened in it
  // (Twilio answered it): the flow's path decides (telephony/flow-outcome.ts).
  router.post('/status', ...guard(ofCall), async (ctx) => {
    const p = params(ctx);
    const outcome = OUTCOMES[p.CallStatus ?? ''];
    if (outcome) {
      const known = await byRef(ctx, p.CallSid ?? '');
      const length = Number(p.CallDuration ?? 0) || 0;
      const report = known
        ? { ...storedReport(known), status: outcome, duration: length }
        : { ...reportOf(p, normalizePhone(p.To ?? '') ?? '', wholeSecond(new Date(Date.now() - length * 1000))), status: outcome, duration: length };
      // Even when the <Dial action> is being recorded at this very moment, its outcome wins.
      await service.recordCall({ ...report, callerPhone: normalizePhone(p.From ?? '') ?? known?.caller ?? null, billingDuration: minutesOf(length) }, new Date(), undefined, { fallback: true, callEnded: true });
    }
    xml(ctx, new twilio.twiml.VoiceResponse());
  });

  router.post('/sms', ...guard(called), async (ctx) => {
    const p = params(ctx);
    const body = p.Body ?? '';
    const several = Number(p.NumSegments ?? 1) > 1 || !GSM_BASIC.test(body);
    await service.recordSms({
      smsRef: required(p, 'MessageSid'),
      trackingNumber: normalizePhone(p.To ?? '') ?? '',
      callerPhone: normalizePhone(p.From ?? ''),
      sentDate: wholeSecond(new Date()),
      ...(several ? { parts: [body] } : { message: body }),
    }, new Date(), mediaOf(p));
    xml(ctx, new twilio.twiml.MessagingResponse());
  });
  return router;
}

/** Twilio sends at most 10 media with a message. */
const MAX_MEDIA = 10;

/** An MMS's media as Twilio's messaging webhook gives them: NumMedia, MediaUrlN, MediaContentTypeN. */
function mediaOf(p: Params): TextMedia[] {
  const count = Math.min(Number(p.NumMedia ?? 0) || 0, MAX_MEDIA);
  return Array.from({ length: count }, (_, i) => ({ url: p[`MediaUrl${i}`] ?? '', contentType: p[`MediaContentType${i}`] ?? 'application/octet-stream' })).filter((m) => m.url.startsWith('https://'));
}

type NumberOf = (p: Params, ctx: Context) => string | null | Promise<string | null>;
/** The answer to a request whose signer's token cannot be read. */
type Untracked = (ctx: Context, p: Params) => Promise<void>;

const nothingWritten: Untracked = async (ctx) => xml(ctx, new twilio.twiml.VoiceResponse());

/** A request is taken only signed by the account that owns the number it is about: with its auth
 * token when an account is connected to the request's AccountSid here, else with TWILIO_AUTH_TOKEN
 * (the operator's own Twilio account, for every number). Otherwise 403, and nothing is written. */
function twilioSignature({ authToken: shortcut, signerFor, publicUrl }: TwilioOptions, numberOf: NumberOf, untracked: Untracked, log: Logger): Middleware {
  return async (ctx, next) => {
    const p = params(ctx);
    let signer: Signer;
    try {
      signer = (await signerFor?.(p.AccountSid ?? '', await numberOf(p, ctx))) ?? { kind: 'none' };
    } catch (err) {
      if (!(err instanceof SecretUnreadable)) throw err;
      log.error({ accountSid: p.AccountSid, path: ctx.path }, err.message);
      if (!shortcut) return untracked(ctx, p);
      signer = { kind: 'none' }; // TWILIO_AUTH_TOKEN checks it
    }
    if (signer.kind === 'foreign') throw new TelephonyFailure(403, 'The number is not one of the account connected to this AccountSid');
    const authToken = (signer.kind === 'owner' ? signer.token : null) ?? shortcut;
    if (!authToken) throw new TelephonyFailure(403, 'Twilio is not configured: connect its account (Account, Carrier) or set TWILIO_AUTH_TOKEN');
    const url = `${collectorAddress(ctx, publicUrl)}${ctx.originalUrl}`;
    if (!twilio.validateRequest(authToken, ctx.get('x-twilio-signature'), url, p)) {
      throw new TelephonyFailure(403, 'Invalid X-Twilio-Signature');
    }
    await next();
  };
}

function reportOf(p: Record<string, string | undefined>, trackingNumber: string, startDate: Date) {
  return {
    callRef: required(p, 'CallSid'),
    trackingNumber,
    callerPhone: normalizePhone(p.From ?? ''),
    startDate,
    duration: 0,
    answerTime: 0,
    triggerType: 1,
    isRedirect: false,
    revenue: 0,
  };
}

function wholeSecond(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
