// `npm run bench`, the rules part (issue 55): a domain's rules tested on one call, as the runner does
// at each moment (rules/rule-runner.ts): the call read into its subject once, every rule's conditions
// tested on it, the marks of those that match made. Measured at the limits a person may write (100
// rules of 20 conditions) and at a realistic 10 rules of 3 conditions; no database (its one read of
// the rules and one write of the call are the collector's usual reads and writes).
import { ruleMatches } from '../../collector/src/rules/conditions.ts';
import type { RuleDoc } from '../../collector/src/rules/documents.ts';
import { ruleBody, type RuleCondition } from '../../collector/src/rules/rule-input.ts';
import { callMarkState, markAll } from '../../collector/src/rules/rule-runner.ts';
import { callSubject } from '../../collector/src/rules/subject.ts';
import type { CallDoc } from '../../collector/src/telephony/documents.ts';

const CALLS = Number(process.env.BENCH_RULE_CALLS ?? 20_000);
const at = new Date(Date.UTC(2026, 10, 24, 15, 30));
const touch = { visitId: 1, at, source: 'paid:google', keyword: 'boiler repair', landingUrl: 'https://acme.example/boilers?utm_medium=cpc&utm_campaign=winter', campaign: 'winter', content: null, gclid: 'G', msclkid: null, fbclid: null };

/** A call of its own, each a little different (its duration, caller, keyword, labels heard). */
const callOf = (i: number) =>
  ({
    _id: i, domainId: 'acme.example', startedAt: new Date(at.getTime() + i * 60_000), source: i % 3 ? 'paid:google' : 'organic:bing', keyword: `boiler repair ${i % 50}`, lastTouch: touch, trackingNumber: '0400000001',
    caller: `06${String(10_000_000 + i).slice(-8)}`, status: 'SUCCESS', outcome: 'SUCCESS', duration: i % 300, firstCall: i % 2 === 0, personId: i, tags: [], value: null,
    transcript: { status: 'ready', keyPhrases: i % 4 ? ['price'] : ['booked', 'price'], heardBy: { caller: ['booked'], agent: ['price'] }, at },
  }) as unknown as CallDoc;

const CONDITIONS: unknown[] = [
  { field: 'duration', op: 'atLeast', value: 60 }, { field: 'campaign', op: 'contains', value: 'win' }, { field: 'keyPhrase', op: 'said', value: 'booked', speaker: 'caller' },
  { field: 'sourceClass', op: 'is', value: 'paid' }, { field: 'keyword', op: 'contains', value: 'repair' }, { field: 'landingPage', op: 'contains', value: '/boilers' },
  { field: 'dayOfWeek', op: 'in', value: ['mon', 'tue', 'wed', 'thu', 'fri'] }, { field: 'timeOfDay', op: 'between', value: { from: '08:00', to: '20:00' } }, { field: 'callerArea', op: 'startsWith', value: '06' },
  { field: 'answered', op: 'is', value: true },
];

function rules(count: number, conditions: number): RuleDoc[] {
  return Array.from({ length: count }, (_, r) => {
    const body = ruleBody.parse({ name: `rule ${r}`, moment: 'transcript-ready', match: r % 2 ? 'all' : 'any', conditions: Array.from({ length: conditions }, (_, k) => CONDITIONS[(r + k) % CONDITIONS.length]), actions: [{ type: 'tag', tag: `tag ${r % 7}` }, { type: 'value', amount: r }, { type: 'verdict', verdict: 'lead' }] });
    return { _id: `rule_${r}`, domainId: 'acme.example', ...body, conditions: body.conditions as RuleCondition[], position: r, createdAt: at, updatedAt: at, updatedBy: 'bench' };
  });
}

function measure(label: string, list: RuleDoc[]): void {
  const context = { timeZone: 'Europe/Paris', country: 'FR', pool: 9, firstLeadAt: null };
  let matched = 0;
  const run = (i: number) => {
    const call = callOf(i);
    const subject = callSubject(call, context);
    const hits = list.filter((rule) => ruleMatches(rule, subject));
    matched += hits.length;
    markAll(callMarkState(call), hits, at);
  };
  for (let i = 0; i < 2000; i++) run(i); // warm up
  matched = 0;
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    run(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(`  ${label}: median ${us(times[Math.floor(times.length / 2)]!)}, 99th percentile ${us(times[Math.floor(times.length * 0.99)]!)}, worst ${us(times.at(-1)!)} (${(matched / CALLS).toFixed(1)} rules matched a call)`);
}

console.log(`Rules of one call (subject read, conditions tested, marks made; ${CALLS.toLocaleString('en')} calls, one after another):`);
measure('100 rules of 20 conditions (the limits)', rules(100, 20));
measure('10 rules of 3 conditions', rules(10, 3));
