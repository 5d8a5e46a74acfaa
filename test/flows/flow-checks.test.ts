// A call flow as written: its fields checked one by one (steps.ts), then the flow as a whole
// (flow-checks.ts): names that exist, every step reached, no loop, a key once, at most 10 deep.
import { describe, expect, it } from 'vitest';
import { flowProblems } from '../../collector/src/flows/flow-checks.ts';
import { flowBodyIn, MAX_DEPTH, type FlowBody } from '../../collector/src/flows/steps.ts';

const parse = (body: unknown, country = 'FR') => flowBodyIn(country).safeParse(body);
const issues = (body: unknown, country = 'FR') => {
  const r = parse(body, country);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};
const checked = (body: unknown): string[] => {
  const r = parse(body);
  if (!r.success) throw new Error(r.error.message);
  return flowProblems(r.data);
};

/** Opening hours, then press 1 for sales (round robin), 2 for support; closed: voicemail. */
const SALES_AND_SUPPORT = {
  name: 'Sales and support',
  start: 'hours',
  steps: {
    hours: { kind: 'schedule', week: { mon: [{ from: '09:00', to: '12:30' }, { from: '14:00', to: '18:00' }], tue: [{ from: '09:00', to: '18:00' }] }, holidays: [{ from: '2026-12-25', name: 'Christmas' }, { from: '2026-08-01', to: '2026-08-15', name: 'Summer closure' }], open: 'menu', closed: 'voicemail' },
    menu: { kind: 'menu', prompt: { text: 'Press 1 for sales, 2 for support.' }, options: [{ key: '1', label: 'Sales', next: 'sales' }, { key: '2', label: 'Support', next: 'support' }], default: 'sales' },
    sales: { kind: 'ring', strategy: 'round-robin', stickyDays: 30, targets: [{ member: 'Ada@Acme.example', weight: 2 }, { member: 'ben@acme.example' }], noAnswer: 'voicemail' },
    support: { kind: 'ring', strategy: 'simultaneous', ringSeconds: 25, targets: [{ number: '06 11 22 33 44', name: 'On call' }], noAnswer: 'voicemail' },
    voicemail: { kind: 'voicemail' },
  },
};

describe('a call flow as written', () => {
  it('takes a flow of every kind of step, with the defaults filled in and numbers read in the domain country', () => {
    const r = parse(SALES_AND_SUPPORT);
    expect(r.success).toBe(true);
    const flow = r.data as FlowBody;
    expect(flowProblems(flow)).toEqual([]);
    expect(flow.steps.menu).toMatchObject({ timeoutSeconds: 5, repeats: 2 });
    expect(flow.steps.sales).toMatchObject({ ringSeconds: 20, targets: [{ member: 'ada@acme.example', weight: 2 }, { member: 'ben@acme.example', weight: 1 }] });
    expect(flow.steps.support).toMatchObject({ targets: [{ number: '0611223344', name: 'On call', weight: 1 }] });
    expect(flow.steps.voicemail).toMatchObject({ maxSeconds: 120 });
    expect(flow.steps.hours).toMatchObject({ week: { wed: [], sun: [] } });
    // A US domain reads its own national numbers.
    const us = parse({ ...SALES_AND_SUPPORT, steps: { ...SALES_AND_SUPPORT.steps, support: { ...SALES_AND_SUPPORT.steps.support, targets: [{ number: '(312) 555-0140' }] } } }, 'US');
    expect(us.success && (us.data.steps.support as { targets: { number: string }[] }).targets[0]!.number).toBe('0013125550140');
  });

  it('refuses bad fields naming each one', () => {
    const bad = {
      name: '',
      start: 'a b',
      steps: {
        ring: { kind: 'ring', strategy: 'loudest', ringSeconds: 4, targets: [], noAnswer: 'x' },
        long: { kind: 'ring', strategy: 'sequential', ringSeconds: 121, targets: Array.from({ length: 21 }, (_, i) => ({ number: `061122334${i % 10}` })), noAnswer: 'x' },
        menu: { kind: 'menu', prompt: {}, options: [{ key: 'A', label: 'x', next: 'x' }], default: 'x' },
        both: { kind: 'say', prompt: { text: 'hi', audio: '0123456789abcdef01234567' } },
        hours: { kind: 'schedule', week: { mon: [{ from: '18:00', to: '09:00' }], funday: [] }, open: 'x', closed: 'x' },
        where: { kind: 'route', branches: [{ when: {}, next: 'x' }], default: 'x' },
        odd: { kind: 'teleport' },
        number: { kind: 'forward', number: 'not a number' },
      },
    };
    expect(issues(bad)).toEqual(
      expect.arrayContaining([
        'name: must not be empty',
        expect.stringMatching(/^start: must be 1 to 40 letters/),
        expect.stringMatching(/^steps\.ring\.strategy: must be one of simultaneous, sequential, round-robin/),
        'steps.ring.ringSeconds: must be 5 to 120 seconds',
        'steps.ring.targets: needs a target',
        'steps.long.ringSeconds: must be 5 to 120 seconds',
        'steps.long.targets: at most 20 targets',
        'steps.menu.prompt: needs a text or an audio file (one of them)',
        'steps.menu.options.0.key: must be a key of the keypad: 0 to 9, * or #',
        'steps.both.prompt: needs a text or an audio file (one of them)',
        'steps.hours.week.mon.0.to: must end after it starts',
        expect.stringMatching(/^steps\.hours\.week/),
        'steps.where.branches.0.when: needs a condition',
        expect.stringMatching(/^steps\.odd.*must be a step of a known kind/),
        'steps.number.number: "not a number" is not a phone number',
      ]),
    );
    expect(issues({ name: 'Many', start: 's0', steps: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`s${i}`, { kind: 'hangup' }])) })).toEqual(['steps: at most 50 steps']);
  });

  it('refuses a flow that names a step it does not have, uses a key twice, or has a step nobody reaches', () => {
    expect(checked({ name: 'x', start: 'nowhere', steps: { a: { kind: 'hangup' } } })).toEqual(['start: there is no step nowhere']);
    expect(checked({ ...SALES_AND_SUPPORT, steps: { ...SALES_AND_SUPPORT.steps, sales: { ...SALES_AND_SUPPORT.steps.sales, noAnswer: 'gone' } } })).toEqual(['steps.sales.noAnswer: there is no step gone']);
    const twice = { ...SALES_AND_SUPPORT.steps.menu, options: [...SALES_AND_SUPPORT.steps.menu.options, { key: '2', label: 'Billing', next: 'voicemail' }] };
    expect(checked({ ...SALES_AND_SUPPORT, steps: { ...SALES_AND_SUPPORT.steps, menu: twice } })).toEqual(['steps.menu.options.2.key: key 2 is used twice']);
    expect(checked({ ...SALES_AND_SUPPORT, steps: { ...SALES_AND_SUPPORT.steps, spare: { kind: 'hangup' } } })).toEqual(['steps.spare: no way from the start reaches it']);
  });

  it('refuses a loop, and a flow deeper than 10 steps, but not a step two branches share', () => {
    const loop = { name: 'Loop', start: 'a', steps: { a: { kind: 'say', prompt: { text: 'a' }, next: 'b' }, b: { kind: 'say', prompt: { text: 'b' }, next: 'a' } } };
    expect(checked(loop)).toEqual(['steps.b.next: leads back to a: a flow has no loops (a menu repeats itself with repeats)']);
    const chain = (n: number) => ({ name: 'Chain', start: 's0', steps: Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, i === n - 1 ? { kind: 'hangup' } : { kind: 'say', prompt: { text: `${i}` }, next: `s${i + 1}` }])) });
    expect(checked(chain(MAX_DEPTH))).toEqual([]);
    expect(checked(chain(MAX_DEPTH + 1))).toEqual(['steps: a caller could go through 11 steps; at most 10']);
    // The voicemail is reached from three places: shared, not a loop.
    expect(checked(SALES_AND_SUPPORT)).toEqual([]);
  });
});
