// The order a ring group's targets are rung in for one call. `simultaneous` rings all at once and
// `sequential` in the order written; `round-robin` starts at the call's turn (a counter the group
// claims atomically, ring-turns.ts) in a weighted rotation, then goes on in that rotation, so a
// member of weight 2 takes the first ring of twice as many calls as one of weight 1. A sticky
// caller's last answerer goes first. Targets who cannot be rung (unavailable, no phone) are left out.

export interface RingCandidate {
  /** The member's username, or null for a plain number. */
  member: string | null;
  number: string | null;
  name: string;
  weight: number;
  /** False: the member switched themselves off, has no phone, or left the account or the domain. */
  reachable: boolean;
}

/** The rotation of `weights` (smooth weighted round robin: heavier targets spread out, not in a row),
 * as indexes into the targets, one cycle long (the sum of the weights). */
export function rotation(weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const current = weights.map(() => 0);
  const cycle: number[] = [];
  for (let n = 0; n < total; n++) {
    let best = 0;
    for (let i = 0; i < weights.length; i++) {
      current[i]! += weights[i]!;
      if (current[i]! > current[best]!) best = i;
    }
    current[best]! -= total;
    cycle.push(best);
  }
  return cycle;
}

/** The round-robin order of the call of turn `turn`: each target once, in the order the rotation
 * reaches them from the turn's place. */
export function roundRobinOrder<T extends RingCandidate>(targets: T[], turn: number): T[] {
  const cycle = rotation(targets.map((t) => t.weight));
  const order: T[] = [];
  const seen = new Set<number>();
  for (let k = 0; k < cycle.length && seen.size < targets.length; k++) {
    const i = cycle[(turn + k) % cycle.length]!;
    if (!seen.has(i)) {
      seen.add(i);
      order.push(targets[i]!);
    }
  }
  return order;
}

/** The targets to ring, in order: `sticky` (the member who last answered this caller) first when reachable. */
export function ringOrder<T extends RingCandidate>(strategy: 'simultaneous' | 'sequential' | 'round-robin', targets: T[], turn: number, sticky: string | null): T[] {
  // The turns go round those who can be rung: an unavailable member's calls are shared out, not all
  // given to whoever follows them.
  const reachable = targets.filter((t) => t.reachable);
  const ordered = strategy === 'round-robin' ? roundRobinOrder(reachable, turn) : reachable;
  const first = sticky ? ordered.find((t) => t.member === sticky) : undefined;
  return first ? [first, ...ordered.filter((t) => t !== first)] : ordered;
}
