// The demo's generated past: made through the services, the same on every start, and worth looking
// at (several sources and keywords, a mix of outcomes, sales, two agents, people who became leads).
import { afterAll, describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../collector/src/cli/fixture-file.ts';
import { generateDemoHistory } from '../../collector/src/demo/history.ts';
import { overview } from '../../collector/src/reports/overview.ts';
import { seed, testDatabase, type TestDatabase } from '../helpers/collector.ts';

const TODAY = '2026-11-23';
/** A third of the demo's 60 days: the same code per day, a third of the suite's time. */
const DAYS = 20;
const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});

async function demoWithHistory(label: string) {
  const t = await testDatabase(label);
  opened.push(t);
  await seed(t.c, await readFixtureFile('collector/fixtures/demo.json'));
  const summary = await generateDemoHistory(t.c, 'acme.example', { today: TODAY, days: DAYS });
  const report = await overview(t.c, { _id: 'acme.example', currency: 'EUR' }, '2026-11-03', '2026-11-22');
  return { t, summary, report };
}

describe('the demo history', () => {
  it('is the same on two starts, and has every kind of traffic the reports show', async () => {
    const [first, second] = await Promise.all([demoWithHistory('demo_history_1'), demoWithHistory('demo_history_2')]);
    expect(first.summary).toEqual(second.summary);
    expect(first.report.totals).toEqual(second.report.totals);
    expect(first.report.days).toEqual(second.report.days);

    const { totals, sources, keywords, days } = first.report;
    expect(totals.visits).toBe(first.summary!.visits);
    expect(totals.visits).toBeGreaterThan(300);
    expect(totals.calls).toBe(first.summary!.calls);
    expect(totals.calls).toBeGreaterThan(30);
    expect(totals.answered).toBeLessThan(totals.calls); // a mix of outcomes
    expect(totals.newCallers).toBeLessThan(totals.calls); // some callers call again
    expect(totals.newCallers).toBeGreaterThan(totals.calls / 2);
    expect(totals.leads).toBeLessThan(totals.answered); // some answered calls too short to be leads
    expect(totals.leads).toBeGreaterThan(0);
    // Callers are people, as the collector's own calls make them: the regulars' leads are one person each.
    expect(totals.leadPeople).toBeGreaterThan(0);
    expect(totals.leadPeople).toBeLessThan(totals.leads);
    expect(totals.orders).toBeGreaterThan(3);
    expect(days.filter((d) => d.visits > 0)).toHaveLength(DAYS);
    for (const source of ['paid', 'organic', 'social', 'referral', 'direct']) expect(sources.find((s) => s.source === source)!.calls).toBeGreaterThan(0);
    expect(sources.find((s) => s.source === 'offline')!.calls).toBeGreaterThan(3);
    expect(keywords.length).toBeGreaterThanOrEqual(6);
    const agents = await first.t.c.calls.distinct('agent', { domainId: 'acme.example', agent: { $type: 'string' } });
    expect(agents.sort()).toEqual(['alice@acme.example', 'bob@acme.example']);
    // Nothing is held today: the demo's pool is free for the demo pages.
    expect(await first.t.c.slots.countDocuments({ freeAt: { $gt: new Date(`${TODAY}T00:00:00Z`) } })).toBe(0);

    // A second run over a domain that has visits changes nothing.
    expect(await generateDemoHistory(first.t.c, 'acme.example', { today: TODAY })).toBeNull();
  }, 180_000);
});
