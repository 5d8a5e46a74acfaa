// A round-robin group's turns on the real database: 20 calls arriving at once each claim their own
// turn, so each rings the next member first (no two the same while others wait); sticky answers
// last their days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RingTurns } from '../../collector/src/flows/ring-turns.ts';
import { roundRobinOrder, type RingCandidate } from '../../collector/src/flows/ring-order.ts';
import { testDatabase, type TestDatabase } from '../helpers/collector.ts';

describe('ring group turns', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await testDatabase('ring_turns');
  });
  afterAll(() => t.close());

  it('gives 20 simultaneous calls 20 different turns, and their first rings go round the team evenly', async () => {
    const turns = new RingTurns(t.c);
    const claimed = await Promise.all(Array.from({ length: 20 }, () => turns.claim('acme.example', 'flow-1', 'sales')));
    expect([...claimed].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const team: RingCandidate[] = ['ada', 'ben', 'cy', 'dee'].map((name) => ({ member: name, number: '0611223344', name, weight: 1, reachable: true }));
    const firsts = claimed.map((turn) => roundRobinOrder(team, turn)[0]!.name);
    for (const name of ['ada', 'ben', 'cy', 'dee']) expect(firsts.filter((f) => f === name)).toHaveLength(5);
    // Another group, or another step, counts its own turns.
    expect(await turns.claim('acme.example', 'flow-1', 'support')).toBe(0);
    expect(await turns.claim('acme.example', 'flow-1', 'sales')).toBe(20);
  });

  it('remembers who answered a caller for the sticky days, and forgets after', async () => {
    const turns = new RingTurns(t.c);
    const monday = new Date('2026-11-30T09:00:00Z');
    await turns.answered('acme.example', '0611223344', 'ben', monday);
    expect(await turns.stickyMember('acme.example', '0611223344', 30, new Date('2026-12-29T09:00:00Z'))).toBe('ben');
    expect(await turns.stickyMember('acme.example', '0611223344', 30, new Date('2026-12-31T09:00:00Z'))).toBeNull();
    expect(await turns.stickyMember('acme.example', '0699999999', 30, monday)).toBeNull();
    expect(await turns.stickyMember('acme.example', null, 30, monday)).toBeNull();
    expect(await turns.stickyMember('other.example', '0611223344', 30, monday)).toBeNull();
  });
});
