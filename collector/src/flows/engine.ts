// The call flow engine: from a step and what the caller just did, the carrier-neutral actions to
// take next and the path walked. Pure: it reads no database and dials nobody. Steps that decide
// alone (schedule, route, say) are walked through at once; it stops at the first step that waits on
// the caller or the phones: a menu (gather), a ring group (ring), a voicemail (record), a forward
// or a hang-up. The adapters (Twilio's TwiML, the PBX API) turn the actions into their own words,
// and come back with the step and its input.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { e164Of } from '../domains/phone-numbers.ts';
import type { CallFlowStep } from '../telephony/documents.ts';
import { scheduleAt } from './schedule.ts';
import { MAX_DEPTH, stepNamed, type FlowBody, type FlowStep } from './steps.ts';

/** What the flow knows of the call when it decides. */
export interface FlowCall {
  at: Date;
  timeZone: string;
  /** The domain's country: the default voicemail greeting's language. */
  country: string;
  /** The caller's country and national number (null: anonymous or unknown). */
  callerCountry: string | null;
  callerNational: string | null;
  /** The caller never called the domain before (null: anonymous). */
  firstTime: boolean | null;
  blocked: boolean;
  /** The matched visit's source class (paid, organic…) and campaign; null: no visit. */
  sourceClass: string | null;
  campaign: string | null;
}

/** Where the call is in its flow: a step, and for a menu how many times its prompt was played again. */
export interface FlowPosition {
  step: string;
  tries: number;
}

/** What the caller or the phones did at the step the flow waited on. */
export type FlowInput = { kind: 'key'; key: string } | { kind: 'word'; word: string } | { kind: 'none' } | { kind: 'ring'; answered: boolean } | { kind: 'done' };

type Ring = Extract<FlowStep, { kind: 'ring' }>;

export type FlowAction =
  | { kind: 'say'; text: string }
  | { kind: 'play'; audio: string }
  | { kind: 'gather'; at: FlowPosition; timeoutSeconds: number; keys: string[]; words: string[] }
  | { kind: 'ring'; at: FlowPosition; strategy: Ring['strategy']; targets: Ring['targets']; ringSeconds: number; stickyDays: number | null }
  | { kind: 'forward'; at: FlowPosition; number: string | null }
  | { kind: 'record'; at: FlowPosition; maxSeconds: number }
  | { kind: 'hangup' };

/** One step of the call's path, as the call page and the data API's `flow_path` show it. */
export type FlowPathEntry = CallFlowStep;

export interface FlowTurn {
  actions: FlowAction[];
  path: FlowPathEntry[];
}

/** A caller's country and national number, as a route step reads them (null: anonymous). */
export function callerOf(caller: string | null): Pick<FlowCall, 'callerCountry' | 'callerNational'> {
  const parsed = caller ? parsePhoneNumberFromString(e164Of(caller)) : undefined;
  return { callerCountry: parsed?.country ?? null, callerNational: parsed ? String(parsed.nationalNumber) : null };
}

export class FlowBroken extends Error {}

const defaultGreeting = (country: string) => (country === 'FR' ? 'Vous êtes bien sur notre messagerie. Laissez un message après le bip.' : 'Please leave a message after the tone.');

const promptActions = (p: { text?: string; audio?: string }): FlowAction[] => (p.audio ? [{ kind: 'play', audio: p.audio }] : [{ kind: 'say', text: p.text! }]);

/** The flow's first turn: from its start. */
export function startFlow(flow: FlowBody, call: FlowCall): FlowTurn {
  return walk(flow, flow.start, call, { actions: [], path: [] });
}

/** The next turn after the caller or the phones answered the step the flow waited on. */
export function continueFlow(flow: FlowBody, at: FlowPosition, input: FlowInput, call: FlowCall): FlowTurn {
  const step = stepOf(flow, at.step);
  const turn: FlowTurn = { actions: [], path: [] };
  const note = (outcome: string, given?: string) => turn.path.push({ step: at.step, ...namedOf(step), kind: step.kind, ...(given === undefined ? {} : { input: given }), outcome, at: call.at });
  switch (step.kind) {
    case 'menu': {
      const given = input.kind === 'key' ? input.key : input.kind === 'word' ? input.word.trim() : undefined;
      const chosen = input.kind === 'key' ? step.options.find((o) => o.key === given) : input.kind === 'word' ? step.options.find((o) => o.word?.toLowerCase() === given!.toLowerCase()) : undefined;
      if (chosen) {
        note(`${input.kind === 'key' ? 'pressed' : 'said'} ${given} (${chosen.label})`, given);
        return walk(flow, chosen.next, call, turn);
      }
      const why = given === undefined ? 'no key' : `${input.kind === 'key' ? 'pressed' : 'said'} ${given}, no option`;
      if (at.tries < step.repeats) {
        note(`${why}: played again`, given);
        if (given !== undefined && step.invalidText) turn.actions.push({ kind: 'say', text: step.invalidText });
        turn.actions.push(...promptActions(step.prompt), { kind: 'gather', at: { step: at.step, tries: at.tries + 1 }, timeoutSeconds: step.timeoutSeconds, keys: step.options.map((o) => o.key), words: wordsOf(step) });
        return turn;
      }
      note(`${why}: default`, given);
      return walk(flow, step.default, call, turn);
    }
    case 'ring':
      // Who answered, or who did not and for how long, the adapter knows and notes (flow-runner.ts).
      if (input.kind === 'ring' && input.answered) {
        turn.actions.push({ kind: 'hangup' });
        return turn;
      }
      return walk(flow, step.noAnswer, call, turn);
    default:
      // A voicemail recorded, a forward or a hang-up: the call is over.
      turn.actions.push({ kind: 'hangup' });
      return turn;
  }
}

/** A step's name as a person gave it, for its entries in the call's path (absent: none). */
export const namedOf = (step: FlowStep | undefined): { name?: string } => (step?.name ? { name: step.name } : {});

function stepOf(flow: FlowBody, name: string): FlowStep {
  const step = stepNamed(flow.steps, name);
  if (!step) throw new FlowBroken(`the flow has no step ${name}`);
  return step;
}

const wordsOf = (menu: Extract<FlowStep, { kind: 'menu' }>) => menu.options.flatMap((o) => (o.word ? [o.word] : []));

/** Walks from `name` through the steps that decide alone, up to the first that waits. */
function walk(flow: FlowBody, name: string, call: FlowCall, turn: FlowTurn): FlowTurn {
  // A stored flow has no loop and is at most MAX_DEPTH deep (flow-checks.ts): a walk that goes on
  // longer is a bug, and the call falls back to the destination rather than loop.
  for (let walked = 0; walked <= MAX_DEPTH; walked++) {
    const step = stepOf(flow, name);
    const note = (outcome: string) => turn.path.push({ step: name, ...namedOf(step), kind: step.kind, outcome, at: call.at });
    const here: FlowPosition = { step: name, tries: 0 };
    switch (step.kind) {
      case 'schedule': {
        const answer = scheduleAt(step, call.at, call.timeZone);
        note(`${answer.open ? 'open' : 'closed'} (${answer.why})`);
        name = answer.open ? step.open : step.closed;
        continue;
      }
      case 'route': {
        const index = step.branches.findIndex((b) => routeMatches(b.when, call));
        note(index < 0 ? 'no branch matched: default' : `branch ${index + 1} matched`);
        name = index < 0 ? step.default : step.branches[index]!.next;
        continue;
      }
      case 'say':
        note('said');
        turn.actions.push(...promptActions(step.prompt));
        if (!step.next) {
          turn.actions.push({ kind: 'hangup' });
          return turn;
        }
        name = step.next;
        continue;
      case 'menu':
        note('prompt played');
        turn.actions.push(...promptActions(step.prompt), { kind: 'gather', at: here, timeoutSeconds: step.timeoutSeconds, keys: step.options.map((o) => o.key), words: wordsOf(step) });
        return turn;
      case 'ring':
        note(`ring ${step.strategy}`);
        turn.actions.push({ kind: 'ring', at: here, strategy: step.strategy, targets: step.targets, ringSeconds: step.ringSeconds, stickyDays: step.stickyDays ?? null });
        return turn;
      case 'voicemail':
        note('voicemail');
        turn.actions.push(...promptActions(step.greeting ?? { text: defaultGreeting(call.country) }), { kind: 'record', at: here, maxSeconds: step.maxSeconds });
        return turn;
      case 'forward':
        note('forward');
        turn.actions.push({ kind: 'forward', at: here, number: step.number ?? null });
        return turn;
      case 'hangup':
        note('hung up');
        turn.actions.push({ kind: 'hangup' });
        return turn;
    }
  }
  throw new FlowBroken(`the flow goes through more than ${MAX_DEPTH} steps`);
}

type RouteWhen = Extract<FlowStep, { kind: 'route' }>['branches'][number]['when'];

/** Every condition of a branch holds (an unknown caller or visit matches no condition about it). */
function routeMatches(when: RouteWhen, call: FlowCall): boolean {
  if (when.callerCountry !== undefined && call.callerCountry !== when.callerCountry) return false;
  if (when.callerArea !== undefined && !call.callerNational?.startsWith(when.callerArea)) return false;
  if (when.caller !== undefined && (call.firstTime === null || call.firstTime !== (when.caller === 'first-time'))) return false;
  if (when.blocked !== undefined && call.blocked !== when.blocked) return false;
  if (when.sourceClass !== undefined && call.sourceClass?.toLowerCase() !== when.sourceClass) return false;
  if (when.campaign !== undefined && call.campaign?.toLowerCase() !== when.campaign) return false;
  return true;
}
