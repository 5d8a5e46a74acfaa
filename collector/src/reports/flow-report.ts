// The overview's call flows (ours, issue 65): over a range, the calls that went through a flow by
// the menu choice they made, by the ring group that rang them (answered, missed, answer rate,
// average time to answer) and by who answered. Read from the calls' paths, at most MAX_CALLS calls
// (the newest) a request: a bigger range says it was cut.
import type { DomainDoc } from '../domains/documents.ts';
import { localDaysBetween } from '../domains/time-zone.ts';
import type { CallFlowDoc, FlowCollections } from '../flows/documents.ts';
import { stepNamed } from '../flows/steps.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import type { DayRange } from './day-range.ts';
import { endedAs } from '../telephony/outcome.ts';

export const MAX_CALLS = 20_000;

interface Tally {
  calls: number;
  answered: number;
  answerSeconds: number;
  timed: number;
}

const tally = (): Tally => ({ calls: 0, answered: 0, answerSeconds: 0, timed: 0 });
const rates = (t: Tally) => ({ calls: t.calls, answered: t.answered, missed: t.calls - t.answered, answerRate: t.calls ? Math.round((t.answered / t.calls) * 1000) / 10 : null, averageAnswerSeconds: t.timed ? Math.round(t.answerSeconds / t.timed) : null });

export async function flowReport(c: TelephonyCollections & FlowCollections, domain: DomainDoc, range: DayRange) {
  const calls = await c.calls
    .find({ domainId: domain._id, startedAt: localDaysBetween(range.from, range.to, domain.timeZone), flowId: { $exists: true } }, { projection: { flowId: 1, flowPath: 1, answeredBy: 1, voicemail: 1, abandoned: 1, status: 1, outcome: 1 }, sort: { startedAt: -1 }, limit: MAX_CALLS + 1 })
    .toArray();
  const flows = new Map((await c.callFlows.find({ domainId: domain._id }, { projection: { name: 1, steps: 1 } }).toArray()).map((f) => [f._id, f as CallFlowDoc]));
  const choices = new Map<string, { flow: string; step: string; name: string | null; key: string; label: string; calls: number }>();
  const groups = new Map<string, Tally & { flow: string; step: string; name: string | null; strategy: string }>();
  const answerers = new Map<string, Tally & { name: string; member: boolean }>();
  let voicemails = 0;
  // The calls nobody answered, each way apart (issue 80): the who-answered table's last rows.
  const nobody = { missed: 0, abandoned: 0, voicemail: 0 };
  for (const call of calls.slice(0, MAX_CALLS) as CallDoc[]) {
    const flow = flows.get(call.flowId!);
    const flowName = flow?.name ?? 'a deleted flow';
    if (call.voicemail) voicemails++;
    const ended = endedAs(call);
    if (ended && ended !== 'answered') nobody[ended]++;
    for (const entry of call.flowPath ?? []) {
      if (entry.kind === 'menu' && entry.input !== undefined && /^(pressed|said) /.test(entry.outcome) && !entry.outcome.includes('no option')) {
        const key = `${call.flowId}|${entry.step}|${entry.input}`;
        const label = /\((.*)\)$/.exec(entry.outcome)?.[1] ?? entry.input;
        const choice = choices.get(key) ?? { flow: flowName, step: entry.step, name: (flow && stepNamed(flow.steps, entry.step)?.name) ?? null, key: entry.input, label, calls: 0 };
        choice.calls++;
        choices.set(key, choice);
      }
    }
    // Each ring group the call reached once, answered if the call's answerer answered there.
    const rung = new Set((call.flowPath ?? []).filter((e) => e.kind === 'ring' && e.outcome.startsWith('ring ')).map((e) => e.step));
    const answeredAt = (call.flowPath ?? []).find((e) => e.kind === 'ring' && e.outcome.includes(' answered'))?.step;
    for (const step of rung) {
      const key = `${call.flowId}|${step}`;
      const ring = flow ? stepNamed(flow.steps, step) : undefined;
      // The step's name as a person gave it now ("Sales team"; issue 80), null where it has none.
      const group = groups.get(key) ?? { ...tally(), flow: flowName, step, name: ring?.name ?? null, strategy: ring?.kind === 'ring' ? ring.strategy : '' };
      group.calls++;
      if (answeredAt === step) {
        group.answered++;
        if (typeof call.answeredBy?.afterSeconds === 'number') {
          group.answerSeconds += call.answeredBy.afterSeconds;
          group.timed++;
        }
      }
      groups.set(key, group);
    }
    if (call.answeredBy) {
      const who = answerers.get(call.answeredBy.name) ?? { ...tally(), name: call.answeredBy.name, member: call.answeredBy.member !== null };
      who.calls++;
      who.answered++;
      if (typeof call.answeredBy.afterSeconds === 'number') {
        who.answerSeconds += call.answeredBy.afterSeconds;
        who.timed++;
      }
      answerers.set(who.name, who);
    }
  }
  const byCalls = <T extends { calls: number }>(rows: T[]) => rows.sort((a, b) => b.calls - a.calls);
  return {
    from: range.from,
    to: range.to,
    calls: Math.min(calls.length, MAX_CALLS),
    cut: calls.length > MAX_CALLS,
    voicemails,
    nobody,
    menuChoices: byCalls([...choices.values()]),
    ringGroups: byCalls([...groups.values()].map((g) => ({ flow: g.flow, step: g.step, name: g.name, strategy: g.strategy, ...rates(g) }))),
    answeredBy: byCalls([...answerers.values()].map((a) => ({ name: a.name, member: a.member, calls: a.calls, averageAnswerSeconds: a.timed ? Math.round(a.answerSeconds / a.timed) : null }))),
  };
}
