// Spam apart (issue 39): a call a person marks spam leaves every figure of calls, new callers and
// leads (totals, days, sources, keywords) as if it had not come, and shows as its own figure; the
// calls log's filters give the same counts; a recount (rebuild-summaries, the upgrade's migration)
// counts the same way; undoing the verdict brings the call back.
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../collector/src/house/migrations.ts';
import { CallSummaries } from '../../collector/src/house/call-summaries.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const USER = { username: 'owner@shop.test', password: 'spam apart password' };
const fixture = trackingFixture({ users: [USER], exclusive: Array.from({ length: 10 }, (_, i) => `08000003${String(i).padStart(2, '0')}`) });
const s = useSeededCollector('spam_apart', fixture, { telephonyApiKey: TELEPHONY_KEY });

let refs = 0;
async function call(caller: string, url = 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=leak+repair'): Promise<number> {
  const view = await s.collector.post('/ospView', viewParams({ url }));
  const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
  const { body } = await reportCall(s.collector.baseUrl, { callRef: `spam-${++refs}`, trackingNumber: number, startDate: new Date(), callerPhone: caller, duration: 60 });
  return body.callId;
}

describe('a call marked spam', () => {
  let owner: ManageClient;
  const { from, to } = daysAroundNow();
  const overview = async () => (await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}`)).body;
  /** Every figure of calls, new callers and leads the overview shows (the spam caller's visit is a
   * visit: the rates per visit move with it, as with any visit that did not call). */
  const callFigures = (o: any) => ({
    totals: { calls: o.totals.calls, newCallers: o.totals.newCallers, leads: o.totals.leads, answered: o.totals.answered },
    days: o.days.map((d: any) => [d.day, d.calls, d.newCallers, d.leads]),
    sources: o.sources.map((r: any) => [r.source, r.calls, r.newCallers, r.leads]),
    keywords: o.keywords.map((r: any) => [r.keyword, r.calls, r.newCallers, r.leads]),
  });
  const logCount = async (query: string) => (await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}&${query}`)).body.calls.length;

  it('counts in no figure of calls, new callers or leads, under any touch model, and shows apart with a link to it', async () => {
    owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    await call('0611000001');
    await call('0611000002', 'https://shop.test/');
    const before = await overview();
    const beforeFirstTouch = (await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}&model=first-touch`)).body;
    const spam = await call('0611000003');
    expect((await overview()).totals.calls).toBe(before.totals.calls + 1);
    expect((await owner.call('PUT', `/domains/shop.test/calls/${spam}/verdict`, { verdict: 'spam' })).status).toBe(200);
    const after = await overview();
    expect(callFigures(after)).toEqual(callFigures(before));
    expect(after.totals.spam).toBe(1);
    expect(callFigures((await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}&model=first-touch`)).body)).toEqual(callFigures(beforeFirstTouch));
    // The calls log's filters give the same counts: the counted calls, and the spam apart.
    expect(await logCount('spam=false')).toBe(after.totals.calls);
    expect(await logCount('spam=true')).toBe(1);
    expect(await logCount('spam=false&lead=true')).toBe(after.totals.leads);
    expect((await owner.get(`/domains/shop.test/reports/calls?spam=maybe`)).body).toEqual({ error: 'spam must be true (calls marked spam only) or false (the calls the overview counts: no spam, no blocked caller)' });
  });

  it('is counted the same way by a recount and by the upgrade from counters that counted it', async () => {
    const counted = callFigures(await overview());
    await new CallSummaries(s.t.c).rebuild('shop.test', 'UTC');
    expect(callFigures(await overview())).toEqual(counted);
    // Counters of a release before spam apart (every call counted): the migration counts again, once.
    await s.t.c.trafficDays.updateMany({ domainId: 'shop.test' }, { $inc: { 'calls.total': 1 } });
    await s.t.c.domains.updateOne({ _id: 'shop.test' }, { $unset: { callCountsVersion: 1 } });
    await migrateDatabase(s.t.c);
    expect(callFigures(await overview())).toEqual(counted);
    expect(await s.t.c.domains.findOne({ _id: 'shop.test' })).toMatchObject({ callCountsVersion: 3 });
  });

  it('comes back into every figure when the verdict is undone', async () => {
    const withSpam = await overview();
    const spam = (await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}&spam=true`)).body.calls[0].callId;
    await owner.call('PUT', `/domains/shop.test/calls/${spam}/verdict`, { verdict: null });
    const undone = await overview();
    expect(undone.totals.calls).toBe(withSpam.totals.calls + 1);
    expect(undone.totals.spam).toBe(0);
  });
});
