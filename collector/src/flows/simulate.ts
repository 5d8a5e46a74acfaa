// "Test this flow": a call walked through a flow at a chosen time, from a chosen caller, pressing
// the keys given, with the engine the calls use; nobody is dialled and nothing is stored (a
// round-robin group's turn is read, not taken). It answers the path, what the caller hears, each
// ring group's legs with what whoever answers would hear (the whisper), and how the call ends.
import { z } from 'zod';
import type { DomainDoc } from '../domains/documents.ts';
import { canonicalIn, countryOf, nationalOf } from '../domains/phone-numbers.ts';
import { localInstant, localTime } from '../domains/time-zone.ts';
import { whisperOf } from '../telephony/whisper.ts';
import type { CallFlowDoc } from './documents.ts';
import { callerOf, continueFlow, startFlow, type FlowAction, type FlowCall, type FlowPathEntry, type FlowTurn } from './engine.ts';
import { planRing, type RingCollections } from './ring-targets.ts';
import { MENU_KEYS } from './steps.ts';

export const simulateBody = z
  .object({
    at: z.iso.datetime({ offset: true, error: 'must be a date and time, ISO 8601 (2026-12-24T18:30:00+01:00)' }).optional().describe('When the call comes in; absent: now'),
    localAt: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be a day and a time, YYYY-MM-DDTHH:MM')
      .optional()
      .describe("Ours (issue 80): when the call comes in, on the domain's clock (its time zone), as the Test this flow form writes it; not with `at`"),
    caller: z.string().max(40).nullable().optional().describe("The caller's number, as a person writes it; absent or null: anonymous"),
    keys: z.array(z.enum(MENU_KEYS, { error: 'must be a key of the keypad: 0 to 9, * or #' })).max(20, 'at most 20 keys').default([]).describe('The keys pressed at each menu, in order; past them, nothing is pressed'),
    answeredBy: z.string().max(254).nullable().optional().describe('The member (username) or number who picks up when their group rings; absent: nobody answers'),
    firstTime: z.boolean().optional().describe('The caller never called before; absent: first-time when a caller is given'),
    source: z.string().max(200).optional().describe('The visit that led to the call: a source as the calls log writes it (paid:google, organic:bing.com)'),
    keyword: z.string().max(200).optional().describe("That visit's keyword"),
    campaign: z.string().max(200).optional().describe("That visit's utm_campaign"),
  })
  .strict()
  .refine((b) => !(b.at && b.localAt), { message: 'give at or localAt, not both', path: ['localAt'] });
export type SimulateBody = z.infer<typeof simulateBody>;

export interface Simulation {
  path: (Omit<FlowPathEntry, 'at'> & { at: string })[];
  /** What the caller hears, in order: a text said, or an audio file played. */
  heard: { step: string | null; say?: string; play?: string }[];
  rings: { step: string; strategy: string; ringSeconds: number; legs: { name: string; number: string; hears: string | null }[]; skipped: string[] }[];
  /** How the call ends: answered, voicemail, forwarded, hung up, or still waiting at a menu. */
  ends: string;
  /** When the call was walked, on the domain's clock (`YYYY-MM-DD HH:MM`) and its time zone. */
  when: { local: string; timeZone: string };
}

/** Turns of one simulated call at most: 20 keys and a ring group each, with room. */
const MAX_TURNS = 60;

export async function simulateFlow(c: RingCollections, flow: CallFlowDoc, domain: DomainDoc, body: SimulateBody): Promise<Simulation> {
  const caller = body.caller ? canonicalIn(body.caller, countryOf(domain)) : null;
  if (body.caller && !caller) throw new SimulationRefused(`caller: "${body.caller}" is not a phone number`);
  return (await simulateCall(c, flow, domain, { ...body, caller })).simulation;
}

/** The first phone a caller who presses nothing reaches now (canonical), or null (a voicemail, a
 * hang-up): what /telephony/route answers as the destination of a number with a flow. */
export async function firstReached(c: RingCollections, flow: CallFlowDoc, domain: DomainDoc, caller: string | null, fallback: string | null): Promise<string | null> {
  const { reached } = await simulateCall(c, flow, domain, { keys: [], caller });
  return reached === undefined ? null : (reached ?? fallback);
}

/** `caller` canonical. `reached`: the first leg rung or the number forwarded to (null: the destination), undefined: none. */
async function simulateCall(c: RingCollections, flow: CallFlowDoc, domain: DomainDoc, body: Omit<SimulateBody, 'caller'> & { caller: string | null }): Promise<{ simulation: Simulation; reached: string | null | undefined }> {
  const at = body.at ? new Date(body.at) : body.localAt ? localInstant(body.localAt.slice(0, 10), `${body.localAt.slice(11)}:00`, domain.timeZone) : new Date();
  const country = countryOf(domain);
  const caller = body.caller;
  let reached: string | null | undefined;
  const call: FlowCall = {
    at,
    timeZone: domain.timeZone,
    country,
    ...callerOf(caller),
    firstTime: caller ? (body.firstTime ?? true) : null,
    blocked: false,
    sourceClass: body.source?.split(':')[0] ?? null,
    campaign: body.campaign ?? null,
  };
  const answerer = body.answeredBy ? (canonicalIn(body.answeredBy, country) ?? body.answeredBy.trim().toLowerCase()) : null;
  const hears = domain.whisper ? whisperOf({ source: body.source ?? null, keyword: body.keyword ?? null, offlineDescription: null }) : null;
  const clock = localTime(at, domain.timeZone);
  const out: Simulation = { path: [], heard: [], rings: [], ends: 'hung up', when: { local: `${clock.day} ${clock.time.slice(0, 5)}`, timeZone: domain.timeZone } };
  const keys = [...body.keys];
  let turn: FlowTurn = startFlow(flow, call);
  for (let n = 0; n < MAX_TURNS; n++) {
    out.path.push(...turn.path.map(({ at: when, ...entry }) => ({ ...entry, at: when.toISOString() })));
    const step = turn.path.at(-1)?.step ?? null;
    const waits = turn.actions.find((a) => a.kind === 'gather' || a.kind === 'ring' || a.kind === 'record' || a.kind === 'forward' || a.kind === 'hangup');
    for (const a of turn.actions) {
      if (a.kind === 'say') out.heard.push({ step, say: a.text });
      if (a.kind === 'play') out.heard.push({ step, play: a.audio });
    }
    if (!waits) break;
    const next = await answerTo(waits);
    if (!next) break;
    turn = next;
  }
  return { simulation: out, reached };

  async function answerTo(a: FlowAction): Promise<FlowTurn | null> {
    switch (a.kind) {
      case 'gather': {
        const key = keys.shift();
        return continueFlow(flow, a.at, key ? { kind: 'key', key } : { kind: 'none' }, call);
      }
      case 'ring': {
        const plan = await planRing(c, a, { domainId: domain._id, accountId: domain.accountId, flowId: flow._id, caller, at }, { peek: true });
        if (reached === undefined && plan.legs[0]) reached = plan.legs[0].number;
        out.rings.push({ step: a.at.step, strategy: a.strategy, ringSeconds: a.ringSeconds, legs: plan.legs.map((l) => ({ name: l.name, number: nationalOf(l.number, country), hears })), skipped: plan.skipped });
        const picked = plan.legs.find((l) => l.member === answerer || l.number === answerer);
        if (picked) {
          out.path.push({ step: a.at.step, kind: 'ring', target: picked.name, outcome: `${picked.name} answered`, at: at.toISOString() });
          out.ends = `answered by ${picked.name}`;
          return null;
        }
        if (!plan.legs.length && plan.allGone) {
          // As a call would: a group whose members all left is a broken step (flow-runner.ts).
          out.path.push({ step: a.at.step, kind: 'ring', outcome: 'nobody left in the group: the flow fails here', at: at.toISOString() });
          out.ends = 'forwarded to the destination (the flow failed: every member of the group left)';
          return null;
        }
        out.path.push({ step: a.at.step, kind: 'ring', outcome: plan.legs.length ? `${plan.legs.map((l) => l.name).join(', ')} did not answer` : 'nobody to ring', at: at.toISOString() });
        return continueFlow(flow, a.at, { kind: 'ring', answered: false }, call);
      }
      case 'record':
        out.ends = `voicemail (at most ${a.maxSeconds} s)`;
        return null;
      case 'forward': {
        if (reached === undefined) reached = a.number;
        const to = a.number ?? domain.sitePhones[0] ?? null;
        out.ends = to ? `forwarded to ${nationalOf(to, country)}` : 'forwarded to the destination';
        return null;
      }
      default:
        out.ends = 'hung up';
        return null;
    }
  }
}

export class SimulationRefused extends Error {}
