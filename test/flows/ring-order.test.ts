// The order of a ring group's targets for a call: a weighted rotation for round robin, the sticky
// caller's last answerer first, unreachable members left out.
import { describe, expect, it } from 'vitest';
import { ringOrder, rotation, roundRobinOrder, type RingCandidate } from '../../collector/src/flows/ring-order.ts';

const member = (name: string, weight = 1, reachable = true): RingCandidate => ({ member: `${name}@acme.example`, number: '0611223344', name, weight, reachable });
const names = (list: RingCandidate[]) => list.map((t) => t.name);

describe('a ring group order', () => {
  it('spreads the first rings of 30 calls by weight (±1), heavier members not all in a row', () => {
    const team = [member('ada', 3), member('ben', 2), member('cy', 1)];
    const firsts = Array.from({ length: 30 }, (_, turn) => roundRobinOrder(team, turn)[0]!.name);
    const count = (n: string) => firsts.filter((f) => f === n).length;
    expect(Math.abs(count('ada') - 15)).toBeLessThanOrEqual(1);
    expect(Math.abs(count('ben') - 10)).toBeLessThanOrEqual(1);
    expect(Math.abs(count('cy') - 5)).toBeLessThanOrEqual(1);
    expect(rotation([3, 2, 1])).toEqual([0, 1, 0, 2, 1, 0]);
    // Equal weights: each in turn, and every call's order has each member once.
    const equal = [member('ada'), member('ben'), member('cy')];
    expect(Array.from({ length: 6 }, (_, turn) => names(roundRobinOrder(equal, turn)).join(','))).toEqual(['ada,ben,cy', 'ben,cy,ada', 'cy,ada,ben', 'ada,ben,cy', 'ben,cy,ada', 'cy,ada,ben']);
  });

  it('leaves out the members who cannot be rung and puts a sticky caller’s last answerer first', () => {
    const team = [member('ada'), member('ben', 1, false), member('cy')];
    expect(names(ringOrder('sequential', team, 0, null))).toEqual(['ada', 'cy']);
    expect(names(ringOrder('simultaneous', team, 5, null))).toEqual(['ada', 'cy']);
    expect(names(ringOrder('round-robin', team, 1, null))).toEqual(['cy', 'ada']); // turn 1 of the two who can be rung
    expect(names(ringOrder('round-robin', team, 0, 'cy@acme.example'))).toEqual(['cy', 'ada']);
    // A sticky member who cannot be rung now is not waited for.
    expect(names(ringOrder('round-robin', team, 0, 'ben@acme.example'))).toEqual(['ada', 'cy']);
    expect(ringOrder('sequential', [member('ben', 1, false)], 0, null)).toEqual([]);
  });
});
