// The flow engine on its own: the actions and the path of a call walked through a flow, step by
// step, as the adapters will drive it (their own tests go through Twilio and the PBX API).
import { describe, expect, it } from 'vitest';
import { continueFlow, FlowBroken, startFlow, type FlowCall } from '../../collector/src/flows/engine.ts';
import { flowBodyIn, type FlowBody } from '../../collector/src/flows/steps.ts';

const flow = flowBodyIn('FR').parse({
  name: 'Shop',
  start: 'who',
  steps: {
    who: { kind: 'route', branches: [{ when: { blocked: true }, next: 'bye' }, { when: { sourceClass: 'Paid', caller: 'first-time' }, next: 'sales' }], default: 'hours' },
    hours: { kind: 'schedule', week: { mon: [{ from: '09:00', to: '18:00' }] }, open: 'welcome', closed: 'voicemail' },
    welcome: { kind: 'say', prompt: { text: 'Welcome to the shop.' }, next: 'menu' },
    menu: { kind: 'menu', prompt: { text: 'Press 1 for sales, 2 for support.' }, options: [{ key: '1', label: 'Sales', word: 'sales', next: 'sales' }, { key: '2', label: 'Support', next: 'support' }], repeats: 1, invalidText: 'Sorry.', default: 'sales' },
    sales: { kind: 'ring', strategy: 'round-robin', stickyDays: 30, targets: [{ member: 'ada@acme.example', weight: 2 }, { member: 'ben@acme.example' }], noAnswer: 'voicemail' },
    support: { kind: 'ring', strategy: 'simultaneous', ringSeconds: 25, targets: [{ number: '0611223344' }], noAnswer: 'voicemail' },
    voicemail: { kind: 'voicemail', maxSeconds: 60 },
    bye: { kind: 'hangup' },
  },
}) as FlowBody;

// Monday 30 November 2026, 10:00 in Paris.
const call = (over: Partial<FlowCall> = {}): FlowCall => ({ at: new Date('2026-11-30T09:00:00Z'), timeZone: 'Europe/Paris', country: 'FR', callerCountry: 'FR', callerNational: '0611223344', firstTime: false, blocked: false, sourceClass: 'organic', campaign: null, ...over });

describe('the flow engine', () => {
  it('walks schedule, say and menu at once, then key 2 to the support ring, then no answer to the voicemail', () => {
    const first = startFlow(flow, call());
    expect(first.actions).toEqual([
      { kind: 'say', text: 'Welcome to the shop.' },
      { kind: 'say', text: 'Press 1 for sales, 2 for support.' },
      { kind: 'gather', at: { step: 'menu', tries: 0 }, timeoutSeconds: 5, keys: ['1', '2'], words: ['sales'] },
    ]);
    expect(first.path.map((p) => `${p.step}: ${p.outcome}`)).toEqual(['who: no branch matched: default', 'hours: open (Monday 10:00)', 'welcome: said', 'menu: prompt played']);
    const pressed = continueFlow(flow, { step: 'menu', tries: 0 }, { kind: 'key', key: '2' }, call());
    expect(pressed.actions).toEqual([{ kind: 'ring', at: { step: 'support', tries: 0 }, strategy: 'simultaneous', targets: [{ number: '0611223344', weight: 1 }], ringSeconds: 25, stickyDays: null }]);
    expect(pressed.path.map((p) => `${p.step}: ${p.outcome}`)).toEqual(['menu: pressed 2 (Support)', 'support: ring simultaneous']);
    expect(pressed.path[0]!.input).toBe('2');
    const missed = continueFlow(flow, { step: 'support', tries: 0 }, { kind: 'ring', answered: false }, call());
    expect(missed.actions).toEqual([{ kind: 'say', text: 'Vous êtes bien sur notre messagerie. Laissez un message après le bip.' }, { kind: 'record', at: { step: 'voicemail', tries: 0 }, maxSeconds: 60 }]);
    expect(continueFlow(flow, { step: 'voicemail', tries: 0 }, { kind: 'done' }, call()).actions).toEqual([{ kind: 'hangup' }]);
    expect(continueFlow(flow, { step: 'sales', tries: 0 }, { kind: 'ring', answered: true }, call())).toEqual({ actions: [{ kind: 'hangup' }], path: [] });
  });

  it('plays the menu again after no key or a wrong one, as many times as it repeats, then takes its default', () => {
    const wrong = continueFlow(flow, { step: 'menu', tries: 0 }, { kind: 'key', key: '7' }, call());
    expect(wrong.actions.map((a) => a.kind)).toEqual(['say', 'say', 'gather']);
    expect(wrong.actions[0]).toEqual({ kind: 'say', text: 'Sorry.' });
    expect(wrong.actions[2]).toMatchObject({ at: { step: 'menu', tries: 1 } });
    expect(wrong.path.map((p) => p.outcome)).toEqual(['pressed 7, no option: played again']);
    const silent = continueFlow(flow, { step: 'menu', tries: 1 }, { kind: 'none' }, call());
    expect(silent.path.map((p) => `${p.step}: ${p.outcome}`)).toEqual(['menu: no key: default', 'sales: ring round-robin']);
    expect(silent.actions).toEqual([expect.objectContaining({ kind: 'ring', strategy: 'round-robin', stickyDays: 30 })]);
    // A spoken word where the carrier hears one.
    expect(continueFlow(flow, { step: 'menu', tries: 0 }, { kind: 'word', word: ' Sales ' }, call()).path[0]!.outcome).toBe('said Sales (Sales)');
  });

  it('routes by the caller and the visit, first match wins, and says the schedule closed on a Sunday', () => {
    expect(startFlow(flow, call({ blocked: true })).actions).toEqual([{ kind: 'hangup' }]);
    expect(startFlow(flow, call({ sourceClass: 'paid', firstTime: true })).path.map((p) => p.step)).toEqual(['who', 'sales']);
    // An anonymous caller is neither first-time nor returning.
    expect(startFlow(flow, call({ sourceClass: 'paid', firstTime: null })).path[0]!.outcome).toBe('no branch matched: default');
    const sunday = startFlow(flow, call({ at: new Date('2026-11-29T10:00:00Z') }));
    expect(sunday.path.map((p) => p.outcome)).toEqual(['no branch matched: default', 'closed (Sunday 11:00)', 'voicemail']);
  });

  it('says a step it cannot find is broken, for the caller to be sent to the destination instead', () => {
    expect(() => continueFlow(flow, { step: 'gone', tries: 0 }, { kind: 'none' }, call())).toThrow(FlowBroken);
  });
});
