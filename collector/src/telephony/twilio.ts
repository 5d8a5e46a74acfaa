// A Twilio-compatible adapter: Twilio's webhooks in, TwiML out, mapped onto the telephony service.
// Point a Twilio number's voice URL at /telephony/twilio/voice, its call status callback at
// /telephony/twilio/status and its messaging URL at /telephony/twilio/sms.
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import twilio from 'twilio';
import { normalizePhone, toE164, type CallStatus } from '@ringtrail/shared';
import { bodyOf, parseBody } from '../http/body.ts';
import { TelephonyFailure, telephonyEnvelope } from '../http/telephony-envelope.ts';
import type { Logger } from '../logger.ts';
import type { TelephonyService } from './service.ts';

export interface TwilioOptions {
  /** The account's auth token: every request must carry a valid X-Twilio-Signature. */
  authToken?: string;
  /** The public base URL Twilio calls (`https://calls.example.com`); the signature covers the full URL. */
  publicUrl?: string;
}

/** Twilio's final call statuses onto Appendix A; the others (queued, ringing, in-progress) are not an outcome yet. */
const OUTCOMES: Record<string, CallStatus> = {
  completed: 'SUCCESS',
  busy: 'BUSY',
  'no-answer': 'NORESPONSE',
  failed: 'ANOMALY',
  canceled: 'INTERRUPTED',
};

const GSM_BASIC = /^[\n\r\x20-\x7E£¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉÄÖÑÜ§¿äöñüà€]*$/;

export function twilioRoutes(service: TelephonyService, options: TwilioOptions, log: Logger): Router {
  const router = new Router({ prefix: '/telephony/twilio' });
  const guard = [telephonyEnvelope(log), parseBody, twilioSignature(options)];

  router.post('/voice', ...guard, async (ctx) => {
    const p = params(ctx);
    const trackingNumber = normalizePhone(p.To ?? '') ?? '';
    const code = p.Digits || null;
    const now = wholeSecond(new Date());
    const route = await service.routeOf(trackingNumber, code, now);
    const twiml = new twilio.twiml.VoiceResponse();
    if (route.reason === 'code-required') {
      const gather = twiml.gather({ numDigits: route.number!.codeDigits, action: ctx.path, method: 'POST', timeout: 8 });
      gather.say('Please enter the code shown next to the number.');
      twiml.say('No code was entered. Goodbye.');
    } else if (route.reason === 'unknown-number') {
      twiml.say('This number is not in service.');
    } else {
      await service.recordCall({ ...reportOf(p, trackingNumber, now), code: code ?? undefined, status: null }, new Date(), route);
      if (route.destination) twiml.dial({ callerId: p.From || undefined }, toE164(route.destination));
      else twiml.say('This number is not in service.');
    }
    ctx.type = 'text/xml';
    ctx.body = twiml.toString();
  });

  router.post('/status', ...guard, async (ctx) => {
    const p = params(ctx);
    const outcome = OUTCOMES[p.CallStatus ?? ''];
    if (outcome) {
      const known = await service.callByRef(p.CallSid ?? '');
      const duration = Number(p.CallDuration ?? 0) || 0;
      const trackingNumber = known?.trackingNumber ?? normalizePhone(p.To ?? '') ?? '';
      const startDate = known?.startedAt ?? wholeSecond(new Date(Date.now() - duration * 1000));
      await service.recordCall({
        ...reportOf(p, trackingNumber, startDate),
        callerPhone: normalizePhone(p.From ?? '') ?? known?.caller ?? null,
        code: known?.code ?? undefined,
        status: outcome,
        duration,
        billingDuration: Math.ceil(duration / 60) * 60, // Twilio bills voice by the started minute
      });
    }
    ctx.type = 'text/xml';
    ctx.body = new twilio.twiml.VoiceResponse().toString();
  });

  router.post('/sms', ...guard, async (ctx) => {
    const p = params(ctx);
    const body = p.Body ?? '';
    const several = Number(p.NumSegments ?? 1) > 1 || !GSM_BASIC.test(body);
    await service.recordSms({
      smsRef: required(p, 'MessageSid'),
      trackingNumber: normalizePhone(p.To ?? '') ?? '',
      callerPhone: normalizePhone(p.From ?? ''),
      sentDate: wholeSecond(new Date()),
      ...(several ? { parts: [body] } : { message: body }),
    });
    ctx.type = 'text/xml';
    ctx.body = new twilio.twiml.MessagingResponse().toString();
  });
  return router;
}

function twilioSignature({ authToken, publicUrl }: TwilioOptions): Middleware {
  return async (ctx, next) => {
    if (!authToken) throw new TelephonyFailure(403, 'Twilio is not configured: set TWILIO_AUTH_TOKEN');
    const url = `${publicUrl?.replace(/\/$/, '') ?? `${ctx.protocol}://${ctx.host}`}${ctx.originalUrl}`;
    if (!twilio.validateRequest(authToken, ctx.get('x-twilio-signature'), url, params(ctx))) {
      throw new TelephonyFailure(403, 'Invalid X-Twilio-Signature');
    }
    await next();
  };
}

function params(ctx: Context): Record<string, string | undefined> {
  return bodyOf(ctx.request) as Record<string, string | undefined>;
}

function required(p: Record<string, string | undefined>, name: string): string {
  const value = p[name];
  if (!value) throw new TelephonyFailure(400, `Missing parameter ${name}`);
  return value;
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
