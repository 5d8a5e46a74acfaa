// A flow checked as a whole, after its fields (steps.ts): every step it names exists, every step is
// reached from `start`, a menu uses each key once, there is no loop (a menu's own repeats are not
// steps), and no way through it takes more than MAX_DEPTH steps. Each problem is one message
// naming its field, as the other families' 400s do; an empty list: the flow may be stored.
import { MAX_DEPTH, stepNamed, type FlowBody, type FlowStep } from './steps.ts';

/** The steps a step leads to, each with the field that names it. */
export function nextSteps(step: FlowStep): { field: string; name: string }[] {
  switch (step.kind) {
    case 'schedule':
      return [{ field: 'open', name: step.open }, { field: 'closed', name: step.closed }];
    case 'menu':
      return [...step.options.map((o, i) => ({ field: `options.${i}.next`, name: o.next })), { field: 'default', name: step.default }];
    case 'ring':
      return [{ field: 'noAnswer', name: step.noAnswer }];
    case 'route':
      return [...step.branches.map((b, i) => ({ field: `branches.${i}.next`, name: b.next })), { field: 'default', name: step.default }];
    case 'say':
      return step.next ? [{ field: 'next', name: step.next }] : [];
    case 'voicemail':
    case 'forward':
    case 'hangup':
      return [];
  }
}

export function flowProblems(flow: FlowBody): string[] {
  const problems: string[] = [];
  const steps = flow.steps;
  if (!stepNamed(steps, flow.start)) return [`start: there is no step ${flow.start}`];
  for (const [name, step] of Object.entries(steps)) {
    for (const next of nextSteps(step)) if (!stepNamed(steps, next.name)) problems.push(`steps.${name}.${next.field}: there is no step ${next.name}`);
    if (step.kind === 'menu') {
      const seen = new Set<string>();
      step.options.forEach((o, i) => {
        if (seen.has(o.key)) problems.push(`steps.${name}.options.${i}.key: key ${o.key} is used twice`);
        seen.add(o.key);
      });
    }
  }
  if (problems.length > 0) return problems;

  // Depth-first from the start: a step met again on the way it was reached by is a loop; the
  // longest way below each step is its depth (memoized: a flow of 50 steps costs 50 visits).
  const depth = new Map<string, number>();
  const onWay = new Set<string>();
  const walk = (name: string): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    onWay.add(name);
    let deepest = 0;
    for (const next of nextSteps(stepNamed(steps, name)!)) {
      if (onWay.has(next.name)) {
        problems.push(`steps.${name}.${next.field}: leads back to ${next.name}: a flow has no loops (a menu repeats itself with repeats)`);
        continue;
      }
      deepest = Math.max(deepest, walk(next.name));
    }
    onWay.delete(name);
    depth.set(name, deepest + 1);
    return deepest + 1;
  };
  const longest = walk(flow.start);
  if (problems.length > 0) return problems;
  if (longest > MAX_DEPTH) problems.push(`steps: a caller could go through ${longest} steps; at most ${MAX_DEPTH}`);
  for (const name of Object.keys(steps)) if (!depth.has(name)) problems.push(`steps.${name}: no way from the start reaches it`);
  return problems;
}
