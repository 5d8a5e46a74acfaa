// A call's way through its flow, for any carrier: which flow a number uses, the engine's turn with
// its ring groups made legs to dial (ring-targets.ts), and each step kept on the call (`flowPath`,
// `answeredBy`, `voicemail`). The adapters (Twilio's TwiML, the PBX API) say the actions in their
// words. Whatever fails here, the adapter sends the call to the domain's destination: `failed`
// keeps why on the call, for its page and the warning "call flow failing".
import type { DomainCollections, DomainDoc, TrackingNumberDoc } from '../domains/documents.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import type { Logger } from '../logger.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { CallAnswerer, CallDoc, CallFlowStep, TelephonyCollections } from '../telephony/documents.ts';
import type { CallFlowDoc, FlowCollections } from './documents.ts';
import { callerOf, continueFlow, namedOf, startFlow, type FlowAction, type FlowCall, type FlowInput, type FlowPosition, type FlowTurn } from './engine.ts';
import { legsInOrder, planRing, type RingLeg } from './ring-targets.ts';
import { RingTurns } from './ring-turns.ts';
import { firstReached } from './simulate.ts';
import type { PromptAudio } from './prompt-audio.ts';
import { MAX_DEPTH, stepNamed, type FlowBody } from './steps.ts';

/** What the carrier is asked to do, the ring groups made legs. */
export type CallAction =
  | { kind: 'say'; text: string }
  | { kind: 'play'; audio: string }
  | { kind: 'gather'; at: FlowPosition; timeoutSeconds: number; keys: string[]; words: string[] }
  /** `order` and `leg`: a group rung in turn, at its leg `leg` of the order given at first (the targets' indexes). */
  | { kind: 'dial'; at: FlowPosition; strategy: 'simultaneous' | 'sequential' | 'round-robin'; seconds: number; legs: RingLeg[]; order?: number[]; leg?: number }
  /** Today's behaviour: the number's destination (or `number`), with the domain's no-answer redirect. */
  | { kind: 'forward'; at: FlowPosition; number: string | null }
  | { kind: 'record'; at: FlowPosition; maxSeconds: number }
  | { kind: 'hangup' };

/** A call in its flow: what every turn reads. */
export interface FlowRun {
  call: CallDoc;
  domain: DomainDoc;
  flow: CallFlowDoc;
}

type Collections = FlowCollections & TeamCollections & DomainCollections & TelephonyCollections;

/** The most a call's path keeps (a menu played again and again stays within it). */
const MAX_PATH = 100;

/** The name a person gave the flow's step, for the path's entries. */
const named = (run: FlowRun, step: string) => namedOf(stepNamed(run.flow.steps, step));

/** Whether a flow decides for callers of the blocklist (a route step asks about them); otherwise they are refused before it. */
export const decidesBlocked = (flow: FlowBody) => Object.values(flow.steps).some((s) => s.kind === 'route' && s.branches.some((b) => b.when.blocked !== undefined));

/** What the flow knows of a call at `at`. */
export function flowCallOf(call: Pick<CallDoc, 'caller' | 'firstCall' | 'source' | 'lastTouch' | 'forcedStatus'>, domain: DomainDoc, at: Date): FlowCall {
  return {
    at,
    timeZone: domain.timeZone,
    country: countryOf(domain),
    ...callerOf(call.caller),
    firstTime: call.firstCall ?? null,
    blocked: call.forcedStatus === 'CALLER_PHONE_BLACKLISTED',
    sourceClass: call.source?.split(':')[0] ?? null,
    campaign: call.lastTouch?.campaign ?? null,
  };
}

/** The flow a number uses: its own, its pool's, the domain's; null: the domain's default (a forward). */
export async function flowOfNumber(c: FlowCollections, number: Pick<TrackingNumberDoc, '_id' | 'domainId' | 'type'>): Promise<CallFlowDoc | null> {
  const flows = await c.callFlows.find({ domainId: number.domainId, $or: [{ 'assignedTo.numbers': number._id }, { 'assignedTo.pools': number.type }, { 'assignedTo.domain': true }] }).toArray();
  return flows.find((f) => f.assignedTo.numbers.includes(number._id)) ?? flows.find((f) => f.assignedTo.pools.includes(number.type)) ?? flows.find((f) => f.assignedTo.domain) ?? null;
}

export class FlowRunner {
  private readonly turns: RingTurns;

  constructor(
    private readonly c: Collections,
    private readonly log: Logger,
    /** The recorded prompts: a prompt whose file is gone fails the flow (the call goes to the destination). */
    private readonly prompts: PromptAudio | null = null,
  ) {
    this.turns = new RingTurns(c);
  }

  flowOf(number: Pick<TrackingNumberDoc, '_id' | 'domainId' | 'type'>): Promise<CallFlowDoc | null> {
    return flowOfNumber(this.c, number);
  }

  /** For /telephony/route: whether the number has a flow beyond a forward, and the first phone a
   * caller who presses nothing reaches now (null: none, a voicemail or a hang-up). */
  async reachedFirst(number: Pick<TrackingNumberDoc, '_id' | 'domainId' | 'type'>, domain: DomainDoc, caller: string | null, destination: string | null): Promise<{ destination: string | null } | null> {
    const flow = await this.flowOf(number);
    if (!flow || stepNamed(flow.steps, flow.start)?.kind === 'forward') return null;
    return { destination: await firstReached(this.c, flow, domain, caller, destination) };
  }

  /** The stored call's flow and domain; null when the call went through no flow, or it is gone. */
  async runOf(call: CallDoc | null): Promise<FlowRun | null> {
    if (!call?.flowId) return null;
    const [domain, flow] = await Promise.all([this.c.domains.findOne({ _id: call.domainId }), this.c.callFlows.findOne({ _id: call.flowId, domainId: call.domainId })]);
    return domain && flow ? { call, domain, flow } : null;
  }

  /** The call's first turn: the call now goes through `flow`. */
  async start(call: CallDoc, domain: DomainDoc, flow: CallFlowDoc, now = new Date()): Promise<CallAction[]> {
    const run = { call, domain, flow };
    return this.resolved(run, startFlow(flow, flowCallOf(call, domain, now)), now, { flowId: flow._id });
  }

  /** The turn after the caller or the phones answered the step the call waited on. */
  async next(run: FlowRun, at: FlowPosition, input: FlowInput, now = new Date()): Promise<CallAction[]> {
    return this.resolved(run, continueFlow(run.flow, at, input, flowCallOf(run.call, run.domain, now)), now);
  }

  /** The legs of a ring step still to ring, in the order given before. */
  legsInOrder(run: FlowRun, step: string, order: number[]): Promise<RingLeg[]> {
    const ring = stepNamed(run.flow.steps, step);
    if (ring?.kind !== 'ring') return Promise.resolve([]);
    return legsInOrder(this.c, ring.targets, order, { domainId: run.domain._id, accountId: run.domain.accountId });
  }

  /** A leg of a ring group answered `afterSeconds` after it started ringing: who answered, kept for a sticky group. */
  async answered(run: FlowRun, step: string, leg: Pick<RingLeg, 'member' | 'number' | 'name'>, afterSeconds: number | null, now = new Date()): Promise<void> {
    const answeredBy: CallAnswerer = { member: leg.member, number: leg.number, name: leg.name, afterSeconds };
    const after = afterSeconds === null ? '' : ` after ${afterSeconds} s`;
    await this.note(run.call._id, [{ step, ...named(run, step), kind: 'ring', target: leg.name, outcome: `${leg.name} answered${after}`, at: now }], { answeredBy });
    if (leg.member) await this.turns.answered(run.domain._id, run.call.caller, leg.member, now);
  }

  /** Legs of a ring group rang `seconds` and nobody picked up. */
  async notAnswered(run: FlowRun, step: string, legs: Pick<RingLeg, 'name'>[], seconds: number, now = new Date()): Promise<void> {
    const names = legs.map((l) => l.name).join(', ') || 'nobody';
    await this.note(run.call._id, [{ step, ...named(run, step), kind: 'ring', ...(legs.length === 1 ? { target: legs[0]!.name } : {}), outcome: `${names} did not answer (${seconds} s)`, at: now }]);
  }

  /** The caller left a voicemail of `seconds` (the recording itself comes as the call's recording). */
  async voicemailLeft(run: FlowRun, step: string, seconds: number | null, now = new Date()): Promise<void> {
    await this.note(run.call._id, [{ step, ...named(run, step), kind: 'voicemail', outcome: seconds ? `voicemail left (${seconds} s)` : 'voicemail left', at: now }], { voicemail: true });
  }

  /** The flow failed: the adapter sends the call to the destination; the call keeps why. */
  async failed(callId: number, err: unknown, now = new Date()): Promise<void> {
    const error = err instanceof Error ? err.message : String(err);
    this.log.error({ callId, err }, `call flow failing: ${error}`);
    await this.note(callId, [{ step: '-', kind: 'forward', outcome: `the flow failed (${error}): forwarded to the destination`, at: now }], { flowFailure: { at: now, error } }).catch((noted) => this.log.error({ callId, err: noted }, 'the failure of a call flow could not be kept on its call'));
  }

  /** The engine's actions with each ring group made its legs; a group with nobody to ring goes on to its `noAnswer` at once. */
  private async resolved(run: FlowRun, turn: FlowTurn, now: Date, set: Partial<CallDoc> = {}): Promise<CallAction[]> {
    const path: CallFlowStep[] = [...turn.path];
    let actions: FlowAction[] = turn.actions;
    const out: CallAction[] = [];
    for (let rings = 0; rings <= MAX_DEPTH; rings++) {
      for (const a of actions) if (a.kind === 'play' && !(await this.prompts?.fileOf(run.domain._id, a.audio))) throw new Error(`the audio file ${a.audio} is gone`);
      const ring = actions.find((a) => a.kind === 'ring');
      out.push(...(actions.filter((a) => a.kind !== 'ring') as CallAction[]));
      if (!ring || ring.kind !== 'ring') {
        await this.note(run.call._id, path, set);
        return out;
      }
      const plan = await planRing(this.c, ring, { domainId: run.domain._id, accountId: run.domain.accountId, flowId: run.flow._id, caller: run.call.caller, at: now });
      if (plan.skipped.length) path.push({ step: ring.at.step, ...named(run, ring.at.step), kind: 'ring', outcome: `skipped ${plan.skipped.join('; ')}`, at: now });
      if (plan.legs.length) {
        out.push({ kind: 'dial', at: ring.at, strategy: ring.strategy, seconds: ring.ringSeconds, legs: plan.legs });
        await this.note(run.call._id, path, set);
        return out;
      }
      // Nobody left to ring at all (every member named left): a broken step, the call to the destination.
      if (plan.allGone) {
        await this.note(run.call._id, path, set);
        throw new Error(`the ring group ${ring.at.step} has nobody left: every member it names left the account or the domain`);
      }
      path.push({ step: ring.at.step, ...named(run, ring.at.step), kind: 'ring', outcome: 'nobody to ring', at: now });
      const next = continueFlow(run.flow, ring.at, { kind: 'ring', answered: false }, flowCallOf(run.call, run.domain, now));
      path.push(...next.path);
      actions = next.actions;
    }
    throw new Error(`the flow rings more than ${MAX_DEPTH} groups in one turn`);
  }

  /** Adds to the call's path (and sets `set`). One update, not a revision through the call writes:
   * the call goes on (its outcome not known yet), and the write of its outcome, which follows every
   * note, renders its summaries and pushes with the path as it then is. A report racing it sets
   * fields of its own and leaves the path alone. */
  private async note(callId: number, entries: CallFlowStep[], set: Partial<CallDoc> = {}): Promise<void> {
    if (!entries.length && !Object.keys(set).length) return;
    await this.c.calls.updateOne({ _id: callId }, { $push: { flowPath: { $each: entries, $slice: -MAX_PATH } }, ...(Object.keys(set).length ? { $set: set } : {}) });
  }
}
