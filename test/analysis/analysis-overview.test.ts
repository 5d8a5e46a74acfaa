// What the language model read, in the overview (issue 66): appointments booked, sales made and the
// average lead score by source class, keyword and campaign, under each touch model, from counters
// kept at write time (a person's correction moves them), read the same from whole months as from
// days, and given again by a recount.
import { describe, expect, it } from 'vitest';
import { CallSummaries } from '../../collector/src/house/call-summaries.ts';
import { wireWrites } from '../../collector/src/house/writes.ts';
import { dayKey } from '../../collector/src/data/call-days.ts';
import { localTime } from '../../collector/src/domains/time-zone.ts';
import type { CallAnalysis } from '../../collector/src/telephony/documents.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { commerceFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient, type ManageClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const USER = { username: 'owner@shop.test', password: 'analysis-overview-password' };
const s = useSeededCollector('analysis_overview', commerceFixture({ ga4: false, tracking: { users: [USER], exclusive: ['0800000001', '0800000002', '0800000003', '0800000004'] } }), { telephonyApiKey: TELEPHONY_KEY });

const WINTER = 'https://shop.test/offers/boilers?utm_source=google&utm_medium=cpc&utm_campaign=winter%20boilers&utm_term=boiler%20repair';
let ip = 0;
/** A visit of `visitor` from `url`; `call`: its number is called now, for two minutes. */
async function visit(visitor: string, url: string, call?: { ref: string; caller: string }): Promise<number | null> {
  const view = await s.collector.post('/ospView', viewParams({ url, referer_url: '', unique_visitor_id: visitor, direct_display: Boolean(call), ip: `198.51.100.${++ip}` }));
  if (!call) return null;
  const trackingNumber = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '') as string;
  return (await reportCall(s.collector.baseUrl, { callRef: call.ref, trackingNumber, startDate: new Date(), callerPhone: call.caller, duration: 120 })).body.callId as number;
}

/** An analysis as the analysis job writes it: these outcomes yes, the others no. */
function analysis(leadScore: number, yes: string[]): CallAnalysis {
  const names = ['appointmentBooked', 'quoteGiven', 'saleMade', 'existingCustomer', 'spam', 'followUpNeeded'];
  return { status: 'ready', at: new Date(), model: 'qwen2.5:7b', summary: '…', intent: '…', outcomes: Object.fromEntries(names.map((n) => [n, yes.includes(n) ? { answer: 'yes', quote: 'yes', turn: 0, start: 0 } : { answer: 'no' }])), followUp: '', leadScore, leadScoreReasons: [], sentiment: 'neutral', answers: [] };
}

describe('the analysis in the overview', () => {
  let owner: ManageClient;
  const { from, to } = daysAroundNow();
  const overview = async (model?: string, range = { from, to }) => (await owner.get(`/domains/shop.test/reports/overview?from=${range.from}&to=${range.to}${model ? `&model=${model}` : ''}`)).body;

  it('counts appointments, sales and the average lead score by source, keyword and campaign, under each touch model', async () => {
    owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    expect((await overview()).analysis).toEqual({ analysed: 0, appointments: 0, sales: 0, averageLeadScore: null, sources: {}, keywords: [], campaigns: [] });
    // Visitor A comes from the winter campaign, comes back typing the address and calls: booked, 80.
    await visit('visitor-A', WINTER);
    const a = (await visit('visitor-A', 'https://shop.test/contact', { ref: 'an-A', caller: '0611000001' }))!;
    // Visitor B calls from the campaign's visit: a sale, 45. Visitor C's call is not analysed.
    const b = (await visit('visitor-B', WINTER, { ref: 'an-B', caller: '0611000002' }))!;
    await visit('visitor-C', WINTER, { ref: 'an-C', caller: '0611000003' });
    const { writes } = wireWrites(s.t.c, { publicUrl: s.collector.baseUrl });
    await writes.change(a, () => ({ analysis: analysis(80, ['appointmentBooked']) }));
    await writes.change(b, () => ({ analysis: analysis(45, ['saleMade', 'quoteGiven']) }));

    const last = (await overview()).analysis;
    expect(last).toMatchObject({ analysed: 2, appointments: 1, sales: 1, averageLeadScore: 62.5 });
    expect(last.sources).toEqual({ paid: { analysed: 1, appointments: 0, sales: 1, averageLeadScore: 45 }, direct: { analysed: 1, appointments: 1, sales: 0, averageLeadScore: 80 } });
    expect(last.campaigns).toEqual([{ campaign: 'winter boilers', analysed: 1, appointments: 0, sales: 1, averageLeadScore: 45 }]);
    expect(last.keywords).toEqual([{ keyword: 'boiler repair', analysed: 1, appointments: 0, sales: 1, averageLeadScore: 45 }]);
    // By first touch, A's call is the campaign's too.
    const first = (await overview('first-touch')).analysis;
    expect(first.sources).toEqual({ paid: { analysed: 2, appointments: 1, sales: 1, averageLeadScore: 62.5 } });
    expect(first.campaigns).toEqual([{ campaign: 'winter boilers', analysed: 2, appointments: 1, sales: 1, averageLeadScore: 62.5 }]);

    // A person corrects B: no sale after all. The counters move with their word.
    expect((await owner.call('PUT', `/domains/shop.test/calls/${b}/analysis/outcomes/saleMade`, { answer: 'no' })).status).toBe(200);
    expect((await overview()).analysis).toMatchObject({ analysed: 2, appointments: 1, sales: 0, campaigns: [{ campaign: 'winter boilers', sales: 0 }] });
  });

  it('reads whole months as the days give them, and is counted again by a recount', async () => {
    const domain = (await s.t.c.domains.findOne({ _id: 'shop.test' }))!;
    const today = localTime(new Date(), domain.timeZone).day;
    const month = today.slice(0, 7);
    const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).toISOString().slice(0, 10);
    const before = { last: (await overview()).analysis, first: (await overview('first-touch')).analysis };
    for (const [model, expected] of [[undefined, before.last], ['first-touch', before.first]] as const) {
      expect((await overview(model, { from: `${month}-01`, to: lastDay })).analysis).toEqual(expected);
    }
    // A crash's damage, then the recount.
    await s.t.c.trafficDays.updateOne({ _id: dayKey('shop.test', today) }, { $inc: { 'calls.booked.total': 3, 'calls.score.src.paid': 50 }, $unset: { 'calls.analysed.firstTouch': '' } });
    expect((await overview()).analysis).not.toEqual(before.last);
    await new CallSummaries(s.t.c).rebuild('shop.test', domain.timeZone);
    expect((await overview()).analysis).toEqual(before.last);
    expect((await overview('first-touch')).analysis).toEqual(before.first);
  });

  it("ends the calls CSV with the analysis: summary, intent, score, sentiment and each outcome's answer, a person's correction included", async () => {
    const csv = await owner.get(`/domains/shop.test/reports/calls.csv?from=${from}&to=${to}`);
    const [head, ...lines] = csv.text.trimEnd().split('\r\n') as [string, ...string[]];
    expect(head.endsWith(',tags,value,summary,intent,leadScore,sentiment,appointmentBooked,quoteGiven,saleMade,existingCustomer,spam,followUpNeeded')).toBe(true);
    const callB = (await s.t.c.calls.findOne({ callRef: 'an-B' }))!;
    expect(lines.find((l) => l.startsWith(`${callB._id},`))!.endsWith(',…,…,45,neutral,no,yes,no,no,no,no')).toBe(true);
    // A call not analysed leaves them empty.
    const callC = (await s.t.c.calls.findOne({ callRef: 'an-C' }))!;
    expect(lines.find((l) => l.startsWith(`${callC._id},`))!.endsWith(','.repeat(10))).toBe(true);
  });
});
