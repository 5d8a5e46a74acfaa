// The Twilio adapter of call flows (flows/, issue 65): the flow's actions as TwiML (flows/flow-twiml.ts),
// and the callbacks that bring what the caller and the phones did back to the flow, each signed and
// checked like every Twilio request (the number's own account's token):
//   /flow?on=gather   the key pressed or word said at a menu (<Gather action>)
//   /flow?on=ring     a ring group's <Dial> ended: answered, or the next leg rung in turn, or its noAnswer step
//   /flow?on=record   a voicemail was recorded (the audio itself comes to /recording)
//   /flow-answer      a leg of a ring group answered (<Number url>): who, after how long; the whisper
// A caller never hears an error: if anything fails, the call is forwarded to the destination as
// today, and the call keeps why (the warning "call flow failing").
import { stepNamed } from './steps.ts';
import type Router from '@koa/router';
import twilio from 'twilio';
import { announcementLanguage, recordingPlan } from '../domains/recording-settings.ts';
import type { Logger } from '../logger.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { TelephonyService } from '../telephony/service.ts';
import type { TwilioFlows, TwilioGuards } from '../telephony/twilio.ts';
import { dialOutcome, forward, params, recordedDial, RING_SECONDS, storedReport, xml, type Params } from '../telephony/twilio-words.ts';
import type { FlowInput } from './engine.ts';
import { decidesBlocked, type CallAction, type FlowRun, type FlowRunner } from './flow-runner.ts';
import { flowTwiml, type TwilioStep } from './flow-twiml.ts';

const ANSWERED = new Set(['completed', 'answered']);

export function twilioFlows(service: TelephonyService, flows: FlowRunner, log: Logger): TwilioFlows {
  /** The flow's actions in TwiML, each callback naming the call and the step it waits on. */
  const twimlOf = async (run: Pick<FlowRun, 'call' | 'domain'>, actions: CallAction[], callerId: string | null, now = Date.now()): Promise<string> => {
    const callId = run.call._id;
    // Read only for a turn that dials: the recording applies to the leg that answers.
    const plan = actions.some((a) => a.kind === 'dial' || a.kind === 'forward') ? await service.recordingPlanFor(run.call) : null;
    const steps = actions.map((a): TwilioStep => {
      switch (a.kind) {
        case 'say':
        case 'hangup':
          return a;
        case 'play':
          // Relative to this adapter's address (…/telephony/twilio/…): the prompts' (…/telephony/flow-audio/…).
          return { kind: 'play', url: `../flow-audio/${a.audio}` };
        case 'gather':
          return { kind: 'gather', timeoutSeconds: a.timeoutSeconds, words: a.words, action: `flow?call=${callId}&on=gather&step=${a.at.step}&tries=${a.at.tries}` };
        case 'record':
          return { kind: 'record', maxSeconds: a.maxSeconds, action: `flow?call=${callId}&on=record&step=${a.at.step}`, recordingCallback: 'recording' };
        case 'forward': {
          const destination = a.number ?? run.call.destination;
          if (!destination) return { kind: 'say', text: 'This number is not in service.' };
          return { kind: 'dial', legs: [{ number: destination, whisperUrl: run.domain.whisper ? `whisper?call=${callId}` : null }], seconds: run.call.redirect?.afterSeconds ?? RING_SECONDS, action: 'dial', record: recordedDial(plan).record ?? null };
        }
        case 'dial': {
          // At once: every leg in one <Dial>. In turn: the first, the others one callback at a time.
          const legs = a.strategy === 'simultaneous' ? a.legs : a.legs.slice(0, 1);
          const order = (a.order ?? a.legs.map((l) => l.index)).join('.');
          return {
            kind: 'dial',
            legs: legs.map((l) => ({ number: l.number, whisperUrl: `flow-answer?call=${callId}&step=${a.at.step}&target=${l.index}&since=${now}` })),
            seconds: a.seconds,
            action: `flow?call=${callId}&on=ring&step=${a.at.step}&order=${order}&leg=${a.leg ?? 0}&since=${now}`,
            record: recordedDial(plan).record ?? null,
          };
        }
      }
    });
    return flowTwiml(steps, { language: announcementLanguage(run.domain.country ?? 'FR'), callerId });
  };

  /** Today's forward to the call's destination, when the flow failed. */
  const fallback = async (call: CallDoc, callerId: string | null): Promise<string> => {
    const twiml = new twilio.twiml.VoiceResponse();
    if (!call.destination) twiml.say('This number is not in service.');
    else forward(twiml, { callId: call._id, destination: call.destination, callerId, seconds: call.redirect?.afterSeconds ?? RING_SECONDS, plan: await service.recordingPlanFor(call), whisper: await service.whispers(call.domainId) });
    return twiml.toString();
  };

  /** Runs `turn`; the call forwarded to its destination if it fails. */
  const guarded = async (call: CallDoc, callerId: string | null, turn: () => Promise<string>): Promise<string> => {
    try {
      return await turn();
    } catch (err) {
      await flows.failed(call._id, err);
      return fallback(call, callerId);
    }
  };

  /** Nobody answered: a missed call, with a voicemail (the missed-call alert says so), as long as the
   * caller was on the line (the call's end, /status, brings its exact length). */
  const voicemailLeft = async (run: FlowRun, step: string, seconds: number | null): Promise<void> => {
    await flows.voicemailLeft(run, step, seconds);
    await service.recordCall({ ...storedReport(run.call), status: 'NORESPONSE', duration: secondsSince(run.call.startedAt), answerTime: 0 });
  };

  const routes = (router: Router, g: TwilioGuards): void => {
    router.post('/flow', ...g.guard(g.ofCall), async (ctx) => {
      const p = params(ctx);
      const q = ctx.query as Record<string, string | undefined>;
      const known = await g.byRef(ctx, p.CallSid ?? '');
      if (!known) return xml(ctx, new twilio.twiml.VoiceResponse());
      const callerId = p.From || null;
      const step = q.step ?? '';
      ctx.type = 'text/xml';
      ctx.body = await guarded(known, callerId, async () => {
        const run = await flows.runOf(known);
        if (!run) throw new Error(`the call's flow ${known.flowId ?? ''} is gone`);
        const at = { step, tries: Number(q.tries ?? 0) || 0 };
        switch (q.on) {
          case 'gather':
            return twimlOf(run, await flows.next(run, at, gathered(p)), callerId);
          case 'record':
            // Its recording may have come first (and said so).
            if (!known.voicemail) await voicemailLeft(run, step, Number(p.RecordingDuration ?? '') || null);
            return twimlOf(run, await flows.next(run, at, { kind: 'done' }), callerId);
          case 'ring':
            return ringEnded(run, p, q, callerId);
          default:
            throw new Error(`a flow callback of no known kind (${q.on ?? 'none'})`);
        }
      });
    });

    /** A ring group's <Dial> ended: answered (the flow ends there), the caller gone, or the next leg. */
    const ringEnded = async (run: FlowRun, p: Params, q: Record<string, string | undefined>, callerId: string | null): Promise<string> => {
      const step = q.step ?? '';
      const dialStatus = p.DialCallStatus ?? '';
      const at = { step, tries: 0 };
      if (ANSWERED.has(dialStatus)) {
        await service.recordCall(dialOutcome(run.call, p, false));
        return twimlOf(run, await flows.next(run, at, { kind: 'ring', answered: true }), callerId);
      }
      const order = (q.order ?? '').split('.').filter(Boolean).map(Number);
      const leg = Number(q.leg ?? 0) || 0;
      const rang = Math.max(0, Math.round((Date.now() - (Number(q.since) || Date.now())) / 1000));
      const ring = stepNamed(run.flow.steps, step);
      const inTurn = ring?.kind === 'ring' && ring.strategy !== 'simultaneous';
      const rung = await flows.legsInOrder(run, step, inTurn ? order.slice(leg, leg + 1) : order);
      await flows.notAnswered(run, step, rung, rang);
      if (dialStatus === 'canceled') {
        // The caller hung up while it rang.
        await service.recordCall({ ...storedReport(run.call), status: 'INTERRUPTED' });
        return new twilio.twiml.VoiceResponse().toString();
      }
      if (inTurn) {
        const rest = order.slice(leg + 1);
        const next = (await flows.legsInOrder(run, step, rest))[0];
        if (next) return twimlOf(run, [{ kind: 'dial', at, strategy: ring.strategy, seconds: ring.ringSeconds, legs: [next], order, leg: order.indexOf(next.index) }], callerId);
      }
      return twimlOf(run, await flows.next(run, at, { kind: 'ring', answered: false }), callerId);
    };

    // <Number url>: a leg of a ring group answered. Said to whoever answered: the whisper, when on.
    router.post('/flow-answer', ...g.guard(g.ofWhisper), async (ctx) => {
      const q = ctx.query as Record<string, string | undefined>;
      const call = await g.byId(ctx);
      const twiml = new twilio.twiml.VoiceResponse();
      const run = await flows.runOf(call);
      if (run && call) {
        const step = q.step ?? '';
        const [leg] = await flows.legsInOrder(run, step, [Number(q.target)]);
        const since = Number(q.since);
        if (leg) await flows.answered(run, step, leg, Number.isFinite(since) && since > 0 ? Math.max(0, Math.round((Date.now() - since) / 1000)) : null).catch((err) => log.error({ err, callId: call._id }, 'who answered could not be kept'));
        const sentence = await service.whisperFor(call);
        if (sentence) twiml.say(sentence);
      }
      xml(ctx, twiml);
    });
  };

  return {
    routes,
    // The caller hung up during the <Record>: its action may never come, its recording does.
    async voicemailRecorded(call, seconds) {
      const run = await flows.runOf(call);
      const step = [...(call.flowPath ?? [])].reverse().find((e) => e.kind === 'voicemail')?.step;
      if (run && step) await voicemailLeft(run, step, seconds);
    },
    async flowOf(route) {
      const flow = route.number && route.domain ? await flows.flowOf(route.number) : null;
      if (!flow) return null;
      const domain = route.domain!;
      return {
        decidesBlocked: decidesBlocked(flow),
        /** The first answer of a call to a number with a flow: the recording's announcement, then the flow. */
        async started(callId, callerId) {
          const call = await service.callById(callId);
          if (!call) return new twilio.twiml.VoiceResponse().toString();
          return guarded(call, callerId, async () => {
            const actions = await flows.start(call, domain, flow);
            const plan = recordingPlan(domain, true, route.offline);
            const announced: CallAction[] = plan?.announcement ? [{ kind: 'say', text: plan.announcement }, ...actions] : actions;
            return twimlOf({ call, domain }, announced, callerId);
          });
        },
      };
    },
  };
}

const secondsSince = (at: Date) => Math.max(0, Math.round((Date.now() - at.getTime()) / 1000));

/** What the caller did at a <Gather>: a key, a word (speech), or nothing. */
function gathered(p: Params): FlowInput {
  if (p.Digits) return { kind: 'key', key: p.Digits.slice(0, 1) };
  if (p.SpeechResult) return { kind: 'word', word: p.SpeechResult.replace(/[.!?,]+$/, '') };
  return { kind: 'none' };
}
