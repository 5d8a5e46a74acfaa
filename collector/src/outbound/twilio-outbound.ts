// Twilio's side of click-to-call (issue 68), behind the adapter's guards (signed, and only by the
// account that owns the call's tracking number): the member picked up (`/outbound`: told whom they
// call, then the person dialled with the tracking number as caller id, recorded as the domain's
// recording settings say); the person picked up (`/outbound-answer`: the recording announcement, to
// them); the person's leg ended (`/outbound-dial`: its outcome and length); the member's leg ended
// without the person (`/outbound-status`: the member did not pick up). The recording comes to the
// adapter's own /recording, as any call's.
import twilio from 'twilio';
import { recordingPlan } from '../domains/recording-settings.ts';
import { countryOf, e164Of, nationalOf } from '../domains/phone-numbers.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { TwilioCallbacks } from '../telephony/twilio.ts';
import { dialOutcome, OUTCOMES, params, RING_SECONDS, recordedDial, xml } from '../telephony/twilio-words.ts';

/** A number (canonical) said digit by digit as the domain's country writes it: `4 1 5 5 5 5 …` on a
 * US domain, not the canonical 0 0 1 4 1 5. */
const spoken = (canonical: string, country: string) => nationalOf(canonical, country).replace(/\D/g, '').split('').join(' ');

export function twilioOutbound(c: DomainCollections, writes: CallWrites): TwilioCallbacks {
  return {
    routes(router, { guard, ofWhisper, byId }) {
      const outboundOf = async (ctx: Parameters<typeof byId>[0]): Promise<CallDoc | null> => {
        const call = await byId(ctx);
        return call?.direction === 'outbound' ? call : null;
      };
      const domainOf = (call: CallDoc) => c.domains.findOne({ _id: call.domainId });
      const planOf = async (call: CallDoc) => recordingPlan(await domainOf(call), true);

      router.post('/outbound', ...guard(ofWhisper), async (ctx) => {
        const twiml = new twilio.twiml.VoiceResponse();
        const call = await outboundOf(ctx);
        if (call && call.caller) {
          await writes.change(call._id, (now) => ({ outbound: { ...now.outbound!, memberAnswered: true } }));
          const domain = await domainOf(call);
          const plan = recordingPlan(domain, true);
          twiml.say(`Calling ${spoken(call.caller, countryOf(domain ?? {}))} from your tracking number.`);
          const dial = twiml.dial({ callerId: e164Of(call.trackingNumber), action: `outbound-dial?call=${call._id}`, method: 'POST', timeout: RING_SECONDS, ...recordedDial(plan) });
          dial.number(plan?.announcement ? { url: `outbound-answer?call=${call._id}`, method: 'POST' } : {}, e164Of(call.caller));
        }
        xml(ctx, twiml);
      });

      router.post('/outbound-answer', ...guard(ofWhisper), async (ctx) => {
        const twiml = new twilio.twiml.VoiceResponse();
        const call = await outboundOf(ctx);
        const plan = call && (await planOf(call));
        if (plan?.announcement) twiml.say({ language: plan.language }, plan.announcement);
        xml(ctx, twiml);
      });

      router.post('/outbound-dial', ...guard(ofWhisper), async (ctx) => {
        const call = await outboundOf(ctx);
        if (call) {
          const now = Date.now();
          const { status, duration, answerTime, billingDuration } = dialOutcome(call, params(ctx), false, now);
          // The person cannot have talked longer than the call has lasted since it was placed.
          const lasted = Math.max(0, Math.floor((now - call.startedAt.getTime()) / 1000));
          await writes.change(call._id, () => ({ status, outcome: status, duration: Math.min(duration, lasted), answerTime: Math.min(answerTime, lasted), billingDuration, updatedAt: new Date(now) }));
        }
        xml(ctx, new twilio.twiml.VoiceResponse());
      });

      router.post('/outbound-status', ...guard(ofWhisper), async (ctx) => {
        const call = await outboundOf(ctx);
        const p = params(ctx);
        const status = OUTCOMES[p.CallStatus ?? ''];
        // The person's leg says how the call went; without one, the member never picked up.
        if (call && status) await writes.change(call._id, (now) => (now.status !== null ? null : { status: status === 'SUCCESS' ? 'INTERRUPTED' : status, outcome: status === 'SUCCESS' ? 'INTERRUPTED' : status, outbound: { ...now.outbound!, memberAnswered: now.outbound?.memberAnswered ?? false }, updatedAt: new Date() }));
        xml(ctx, new twilio.twiml.VoiceResponse());
      });
    },
  };
}
