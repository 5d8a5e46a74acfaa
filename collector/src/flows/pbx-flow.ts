// Any PBX's adapter of call flows (flows/, issue 65): `POST /telephony/flow` (ours, the platform's
// bearer key). The first request of a call (`callRef`, `trackingNumber`, `callerPhone`) routes and
// records it as /telephony/calls would, then answers the flow's first actions; each next request
// gives back the `step` the answer named with what happened there (`input`), and gets the next
// actions. The outcome, duration and recording are reported as ever (/telephony/calls, …/recording).
// A number without a flow answers today's forward: one dial to the destination.
import { stepNamed } from './steps.ts';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { flowRequest } from '@ringtrail/shared';
import { countryOf, nationalOf, canonicalIn } from '../domains/phone-numbers.ts';
import { announcementLanguage } from '../domains/recording-settings.ts';
import type { DialledNumbers, SentNumbers } from '../domains/dialled-numbers.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { parseTelephonyParams, TelephonyFailure } from '../http/telephony-envelope.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { PbxFlows } from '../telephony/routes.ts';
import type { TelephonyService } from '../telephony/service.ts';
import { RING_SECONDS, storedReport } from '../telephony/twilio-words.ts';
import type { FlowInput } from './engine.ts';
import { decidesBlocked, type CallAction, type FlowRun, type FlowRunner } from './flow-runner.ts';

/** An action in the PBX's words: what to do, and the step to give back with what happened. */
type WireAction =
  | { action: 'say'; text: string; language: string }
  | { action: 'play'; audio: string; url: string }
  | { action: 'gather'; digits: 1; timeout: number; keys: string[]; words: string[] }
  | { action: 'dial'; targets: { number: string; name: string }[]; strategy: string; seconds: number }
  | { action: 'record'; seconds: number }
  | { action: 'hangup' };

const ANSWERED_WORDS = new Set(['answered', 'completed', 'answer']);
/** The input that says the caller hung up at the step. */
const HANGUP = 'hangup';

export function pbxFlows(service: TelephonyService, numbers: DialledNumbers, flows: FlowRunner): PbxFlows {
  const routes = (router: Router, guard: Middleware[]): void => {
    router.post('/flow', ...guard, parseBody, async (ctx) => {
      const body = bodyOf(ctx.request);
      const request = parseTelephonyParams(flowRequest, body);
      const q = await numbers.read({ trackingNumber: request.trackingNumber, callerPhone: request.callerPhone ?? null }, body as SentNumbers);
      const { call, actions } = request.step ? await nextTurn(request, q) : await firstTurn(q.trackingNumber, request.callRef, q.callerPhone);
      const country = await service.countryOfDomain(call.domainId);
      ctx.body = { status: 'OK', callId: call._id, step: stepOf(actions), actions: actions.map((a) => wireOf(a, call, country)) };
    });
  };

  async function firstTurn(trackingNumber: string, callRef: string, caller: string | null): Promise<{ call: CallDoc; actions: CallAction[] }> {
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const route = await service.routeOf(trackingNumber, null, now, caller);
    if (route.reason === 'code-required') throw new TelephonyFailure(400, 'The number is shared and asks for a code: ask GET /telephony/route with the code');
    const flow = route.number ? await flows.flowOf(route.number) : null;
    const refused = route.reason === 'blocked' && !(flow && decidesBlocked(flow));
    const report = { callRef, trackingNumber, callerPhone: caller, startDate: now, status: refused ? ('CALLER_PHONE_BLACKLISTED' as const) : null, duration: 0, answerTime: 0, triggerType: 1, isRedirect: false, revenue: 0 };
    const callId = await service.recordCall(report, new Date(), route);
    const call = (await service.callById(callId))!;
    if (refused) return { call, actions: [{ kind: 'hangup' }] };
    if (!flow || !route.domain) return { call, actions: [{ kind: 'forward', at: { step: 'forward', tries: 0 }, number: null }] };
    return { call, actions: await guarded(call, () => flows.start(call, route.domain!, flow)) };
  }

  async function nextTurn(request: { callRef: string; step?: string; input?: string; answeredBy?: string; seconds?: number }, q: { trackingNumber: string }): Promise<{ call: CallDoc; actions: CallAction[] }> {
    const call = await service.callByRef(request.callRef);
    if (!call || call.trackingNumber !== q.trackingNumber) throw new TelephonyFailure(404, `No call ${request.callRef} to this number: its first request names no step`);
    const [step, tries] = request.step!.split(':') as [string, string];
    const at = { step, tries: Number(tries) };
    return {
      call,
      actions: await guarded(call, async () => {
        const run = await flows.runOf(call);
        if (!run) throw new Error(`the call's flow ${call.flowId ?? ''} is gone`);
        const input = (request.input ?? '').trim();
        const kind = stepNamed(run.flow.steps, step)?.kind;
        if (input.toLowerCase() === HANGUP) return hungUp(run, kind, request.seconds ?? 0);
        switch (kind) {
          case 'menu':
            return flows.next(run, at, keyOrWord(input));
          case 'ring':
            return ringEnded(run, step, input, request);
          case 'voicemail':
            await flows.voicemailLeft(run, step, request.seconds ?? null);
            // As long as the caller was on the line so far (their hang-up, or the call's report, says exactly).
            await service.recordCall({ ...storedReport(call), status: 'NORESPONSE', duration: Math.max(0, Math.round((Date.now() - call.startedAt.getTime()) / 1000)), answerTime: 0 });
            return flows.next(run, at, { kind: 'done' });
          default:
            throw new Error(`the flow has no step ${step} to go on from`);
        }
      }),
    };
  }

  async function ringEnded(run: FlowRun, step: string, input: string, request: { answeredBy?: string; seconds?: number }): Promise<CallAction[]> {
    const ring = stepNamed(run.flow.steps, step)!;
    if (ring.kind !== 'ring') return [];
    const legs = await flows.legsInOrder(run, step, ring.targets.map((_, i) => i));
    const at = { step, tries: 0 };
    if (ANSWERED_WORDS.has(input.toLowerCase())) {
      const who = request.answeredBy ? canonicalIn(request.answeredBy, countryOf(run.domain), { anyPossible: true }) : null;
      const leg = legs.find((l) => l.number === who) ?? (who ? { member: null, number: who, name: who } : legs[0]);
      if (leg) await flows.answered(run, step, leg, request.seconds ?? null);
      return flows.next(run, at, { kind: 'ring', answered: true });
    }
    await flows.notAnswered(run, step, legs, request.seconds ?? ring.ringSeconds);
    return flows.next(run, at, { kind: 'ring', answered: false });
  }

  /** The caller hung up at the step the call waited on, `seconds` into the call: while a group rang,
   * interrupted (as Twilio's `canceled`); elsewhere what the flow's path makes of it
   * (telephony/flow-outcome.ts): abandoned, missed, or a voicemail's length. Nothing more to do. */
  async function hungUp(run: FlowRun, kind: string | undefined, seconds: number): Promise<CallAction[]> {
    const report = storedReport(run.call);
    if (kind === 'ring' && run.call.status === null && !run.call.answeredBy) await service.recordCall({ ...report, status: 'INTERRUPTED', duration: 0 });
    else await service.recordCall({ ...report, status: run.call.status ?? 'NORESPONSE', duration: seconds }, new Date(), undefined, { callEnded: true });
    return [];
  }

  /** The flow's turn, or today's forward when it fails (the call keeps why). */
  async function guarded(call: CallDoc, turn: () => Promise<CallAction[]>): Promise<CallAction[]> {
    try {
      return await turn();
    } catch (err) {
      await flows.failed(call._id, err);
      return [{ kind: 'forward', at: { step: 'forward', tries: 0 }, number: null }];
    }
  }

  return {
    routes,
    reachedFirst: (route, caller) => (route.number && route.domain && route.destination ? flows.reachedFirst(route.number, route.domain, caller, route.destination) : Promise.resolve(null)),
  };
}

function keyOrWord(input: string): FlowInput {
  if (input === '') return { kind: 'none' };
  return /^[0-9*#]/.test(input) ? { kind: 'key', key: input.slice(0, 1) } : { kind: 'word', word: input };
}

/** The step the PBX gives back with what happened: the last action that waits on the caller or the phones. */
function stepOf(actions: CallAction[]): string | null {
  const waits = [...actions].reverse().find((a) => a.kind === 'gather' || a.kind === 'dial' || a.kind === 'record');
  return waits && 'at' in waits ? `${waits.at.step}:${waits.at.tries}` : null;
}

function wireOf(a: CallAction, call: CallDoc, country: string): WireAction {
  const shown = (n: string) => nationalOf(n, country);
  switch (a.kind) {
    case 'say':
      return { action: 'say', text: a.text, language: announcementLanguage(country) };
    case 'play':
      return { action: 'play', audio: a.audio, url: `/telephony/flow-audio/${a.audio}` };
    case 'gather':
      return { action: 'gather', digits: 1, timeout: a.timeoutSeconds, keys: a.keys, words: a.words };
    case 'dial':
      return { action: 'dial', targets: a.legs.map((l) => ({ number: shown(l.number), name: l.name })), strategy: a.strategy, seconds: a.seconds };
    case 'forward': {
      const to = a.number ?? call.destination;
      return to ? { action: 'dial', targets: [{ number: shown(to), name: 'destination' }], strategy: 'simultaneous', seconds: call.redirect?.afterSeconds ?? RING_SECONDS } : { action: 'hangup' };
    }
    case 'record':
      return { action: 'record', seconds: a.maxSeconds };
    case 'hangup':
      return { action: 'hangup' };
  }
}
