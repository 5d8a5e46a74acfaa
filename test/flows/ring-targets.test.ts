// A ring group's legs for a call on the real database: members as their own phones, the unavailable,
// phoneless and removed ones skipped and said, round robin turning, a sticky caller's last answerer first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowAction } from '../../collector/src/flows/engine.ts';
import { planRing } from '../../collector/src/flows/ring-targets.ts';
import { RingTurns } from '../../collector/src/flows/ring-turns.ts';
import { testDatabase, type TestDatabase } from '../helpers/collector.ts';

const ring = (strategy: 'simultaneous' | 'sequential' | 'round-robin', stickyDays: number | null = null): Extract<FlowAction, { kind: 'ring' }> => ({
  kind: 'ring',
  at: { step: 'sales', tries: 0 },
  strategy,
  ringSeconds: 20,
  stickyDays,
  targets: [{ member: 'ada@acme.example', weight: 1 }, { member: 'ben@acme.example', weight: 1 }, { member: 'cy@acme.example', weight: 1 }, { member: 'dee@acme.example', weight: 1 }, { member: 'gone@acme.example', weight: 1 }, { number: '0155554444', name: 'Front desk', weight: 1 }],
});
const call = (caller: string | null = '0611223344') => ({ domainId: 'acme.example', accountId: 'acme', flowId: 'flow-1', caller, at: new Date('2026-11-30T09:00:00Z') });

describe('a ring group for a call', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await testDatabase('ring_targets');
    const createdAt = new Date();
    await t.c.users.insertMany([
      { _id: 'ada@acme.example', accountId: 'acme', role: 'agent', domains: ['acme.example'], createdAt, phone: '0611000001' },
      { _id: 'ben@acme.example', accountId: 'acme', role: 'agent', domains: ['acme.example'], createdAt, phone: '0611000002', available: false },
      { _id: 'cy@acme.example', accountId: 'acme', role: 'agent', domains: ['acme.example'], createdAt },
      { _id: 'dee@acme.example', accountId: 'acme', role: 'admin', createdAt, phone: '0611000004' },
    ]);
  });
  afterAll(() => t.close());

  it('rings every reachable member and number at once, saying who was skipped and why', async () => {
    const plan = await planRing(t.c, ring('simultaneous'), call());
    expect(plan.simultaneous).toBe(true);
    expect(plan.legs.map((l) => l.number)).toEqual(['0611000001', '0611000004', '0155554444']);
    expect(plan.skipped).toEqual(['ben@acme.example: unavailable', 'cy@acme.example: no phone set', 'gone@acme.example: no longer a member who sees this domain']);
  });

  it('turns a round-robin group call by call, and rings a sticky caller’s last answerer first', async () => {
    const firsts = [];
    for (let i = 0; i < 6; i++) firsts.push((await planRing(t.c, ring('round-robin'), call())).legs[0]!.number);
    // Six targets, three reachable: the turns go round those three, two calls each.
    expect([...firsts].sort()).toEqual(['0155554444', '0155554444', '0611000001', '0611000001', '0611000004', '0611000004']);
    await new RingTurns(t.c).answered('acme.example', '0611223344', 'dee@acme.example', new Date('2026-11-29T09:00:00Z'));
    expect((await planRing(t.c, ring('round-robin', 30), call())).legs[0]!.number).toBe('0611000004');
    expect((await planRing(t.c, ring('sequential', 30), call())).legs.map((l) => l.number)).toEqual(['0611000004', '0611000001', '0155554444']);
    // An anonymous caller has no sticky answerer.
    expect((await planRing(t.c, ring('sequential', 30), call(null))).legs[0]!.number).toBe('0611000001');
  });
});
