// The call flows' shapes in the browser, the four templates a flow starts from, and a new step of
// each kind (what the kind select puts in place). The server checks every flow (flows/steps.ts).

export type Step = Record<string, any> & { kind: StepKind };
export type StepKind = 'schedule' | 'menu' | 'ring' | 'route' | 'voicemail' | 'forward' | 'say' | 'hangup';

export interface Flow {
  id?: string;
  name: string;
  start: string;
  steps: Record<string, Step>;
  assignedTo: { domain: boolean; pools: number[]; numbers: string[] };
}

export const KIND_NAMES: Record<StepKind, string> = {
  schedule: 'Opening hours',
  menu: 'Menu (press a key)',
  ring: 'Ring group',
  route: 'Route by caller or visit',
  voicemail: 'Voicemail',
  forward: 'Forward (today’s forward)',
  say: 'Say',
  hangup: 'Hang up',
};

export const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const OFFICE_HOURS = Object.fromEntries(WEEK.map((d, i) => [d, i < 5 ? [{ from: '09:00', to: '18:00' }] : []]));

/** A new step of `kind`, its branches pointing to `next`. */
export function newStep(kind: StepKind, next: string, members: string[]): Step {
  switch (kind) {
    case 'schedule':
      return { kind, week: OFFICE_HOURS, holidays: [], open: next, closed: next };
    case 'menu':
      return { kind, prompt: { text: 'Press 1 for sales, 2 for support.' }, options: [{ key: '1', label: 'Sales', next }], default: next };
    case 'ring':
      return { kind, strategy: 'simultaneous', ringSeconds: 20, targets: members.length ? members.slice(0, 3).map((member) => ({ member })) : [{ number: '', name: 'Front desk' }], noAnswer: next };
    case 'route':
      return { kind, branches: [{ when: { caller: 'first-time' }, next }], default: next };
    case 'voicemail':
      return { kind, maxSeconds: 120 };
    case 'forward':
      return { kind };
    case 'say':
      return { kind, prompt: { text: 'Thank you for calling.' } };
    case 'hangup':
      return { kind };
  }
}

const unassigned = { domain: false, pools: [] as number[], numbers: [] as string[] };

/** The templates a new flow starts from, with the domain's members who may be rung. */
export function templates(members: string[]): { name: string; flow: Flow }[] {
  const team = members.length ? members.slice(0, 5).map((member) => ({ member })) : [{ number: '', name: 'Front desk' }];
  return [
    {
      name: 'Opening hours, else voicemail',
      flow: { name: 'Opening hours, else voicemail', start: 'hours', assignedTo: unassigned, steps: { hours: { kind: 'schedule', week: OFFICE_HOURS, holidays: [], open: 'office', closed: 'voicemail' }, office: { kind: 'forward' }, voicemail: { kind: 'voicemail', maxSeconds: 120 } } },
    },
    {
      name: 'Press 1 for sales, 2 for support',
      flow: {
        name: 'Press 1 for sales, 2 for support',
        start: 'menu',
        assignedTo: unassigned,
        steps: {
          menu: { kind: 'menu', prompt: { text: 'Press 1 for sales, 2 for support.' }, options: [{ key: '1', label: 'Sales', next: 'sales' }, { key: '2', label: 'Support', next: 'support' }], default: 'sales' },
          sales: { kind: 'ring', strategy: 'simultaneous', ringSeconds: 20, targets: team, noAnswer: 'voicemail' },
          support: { kind: 'ring', strategy: 'sequential', ringSeconds: 20, targets: team, noAnswer: 'voicemail' },
          voicemail: { kind: 'voicemail', maxSeconds: 120 },
        },
      },
    },
    {
      name: 'Ring everyone, then voicemail',
      flow: { name: 'Ring everyone, then voicemail', start: 'everyone', assignedTo: unassigned, steps: { everyone: { kind: 'ring', strategy: 'simultaneous', ringSeconds: 25, targets: team, noAnswer: 'voicemail' }, voicemail: { kind: 'voicemail', maxSeconds: 120 } } },
    },
    {
      name: 'Round robin sales team',
      flow: { name: 'Round robin sales team', start: 'team', assignedTo: unassigned, steps: { team: { kind: 'ring', strategy: 'round-robin', stickyDays: 30, ringSeconds: 20, targets: team, noAnswer: 'voicemail' }, voicemail: { kind: 'voicemail', maxSeconds: 120 } } },
    },
  ];
}

/** The steps a step leads to, with the field that names each (as flows/flow-checks.ts reads them). */
export function branchesOf(step: Step): { label: string; name: string }[] {
  switch (step.kind) {
    case 'schedule':
      return [{ label: 'open', name: step.open }, { label: 'closed', name: step.closed }];
    case 'menu':
      return [...step.options.map((o: any) => ({ label: `${o.key}: ${o.label}`, name: o.next })), { label: 'no key', name: step.default }];
    case 'ring':
      return [{ label: 'no answer', name: step.noAnswer }];
    case 'route':
      return [...step.branches.map((b: any, i: number) => ({ label: `branch ${i + 1}`, name: b.next })), { label: 'otherwise', name: step.default }];
    case 'say':
      return step.next ? [{ label: 'then', name: step.next }] : [];
    default:
      return [];
  }
}

/** The steps in the order a caller meets them (depth first from the start), each with its depth; steps no way reaches last. */
export function stepsInOrder(flow: Flow): { name: string; depth: number }[] {
  const out: { name: string; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (name: string, depth: number) => {
    if (seen.has(name) || !Object.hasOwn(flow.steps, name)) return; // `constructor` is a plain name
    seen.add(name);
    out.push({ name, depth });
    for (const b of branchesOf(flow.steps[name]!)) visit(b.name, depth + 1);
  };
  visit(flow.start, 0);
  for (const name of Object.keys(flow.steps)) if (!seen.has(name)) out.push({ name, depth: 0 });
  return out;
}
