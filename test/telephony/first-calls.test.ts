// First-time callers (issue 23, part 1): a call whose caller never called the domain before is a
// first call, decided once at its first report, exactly one of two simultaneous first calls of one
// new caller; anonymous callers are null. Shown in the data API, callStart, the calls log (column,
// filter, CSV) and the overview's totals, sources and keywords.
import { formatUtcDateTime } from '@ringtrail/shared';
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { CC_KEY, commerceFixture, DATA_KEY, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { migrateDatabase } from '../../collector/src/house/migrations.ts';

const USER = { username: 'owner@shop.test', password: 'first-calls-password' };
const fixture = commerceFixture({ tracking: { users: [USER], exclusive: Array.from({ length: 60 }, (_, i) => `08000001${String(i).padStart(2, '0')}`) } });
const s = useSeededCollector('first_calls', fixture, { telephonyApiKey: TELEPHONY_KEY });

let refs = 0;
/** A call of `caller` to a number a visit from `url` was shown; answers its callId. */
async function callFrom(caller: string | undefined, url = 'https://shop.test/'): Promise<number> {
  const view = await s.collector.post('/ospView', viewParams({ url }));
  const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
  // The call starts once the number is shown (a start taken before the view, on a slow machine,
  // fell before the number's lease and made the call unattributed).
  const startDate = new Date();
  const { status, body } = await reportCall(s.collector.baseUrl, { callRef: `first-${++refs}`, trackingNumber: number, startDate, ...(caller === undefined ? { callerPhone: 'anonymous' } : { callerPhone: caller }) });
  expect(status).toBe(200);
  return body.callId;
}

async function dataRecords(): Promise<any[]> {
  const { from, to } = daysAroundNow();
  return (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 100 })).body.results;
}

describe('first-time callers', () => {
  it('makes exactly one of two simultaneous first calls of one new caller the first, for eight callers', async () => {
    const callers = Array.from({ length: 8 }, (_, i) => `06700000${String(i).padStart(2, '0')}`);
    const ids = await Promise.all(callers.flatMap((caller) => [callFrom(caller), callFrom(caller)]));
    const calls = await s.t.c.calls.find({ _id: { $in: ids } }).toArray();
    for (const caller of callers) {
      const theirs = calls.filter((call) => call.caller === caller);
      expect(theirs.map((call) => call.firstCall).sort(), caller).toEqual([false, true]);
    }
  });

  it('counts per domain, keeps the decision at later reports, and leaves anonymous callers null', async () => {
    const first = await callFrom('0671111111');
    const again = await callFrom('0671111111');
    const anonymous = await callFrom(undefined);
    // A later report of the first call (its outcome) does not decide again.
    const stored = (await s.t.c.calls.findOne({ _id: first }))!;
    await reportCall(s.collector.baseUrl, { callRef: stored.callRef, trackingNumber: stored.trackingNumber, startDate: stored.startedAt, callerPhone: '0671111111', duration: 300 });
    const records = await dataRecords();
    const numberOf = new Map((await s.t.c.calls.find({ _id: { $in: [first, again, anonymous] } }).toArray()).map((call) => [call._id, call.trackingNumber]));
    const recordOf = (id: number) => records.find((r) => r.tracking_number === numberOf.get(id));
    expect(recordOf(first)).toMatchObject({ caller: '0671111111', first_call: true, duration: 300 });
    expect(recordOf(again)).toMatchObject({ caller: '0671111111', first_call: false });
    expect(recordOf(anonymous)).toMatchObject({ first_call: null });
  });

  it('treats a call stored before first calls were kept as an earlier call', async () => {
    // A call as the previous release stored it: no firstCall field, no claim of its caller.
    const older = (await s.t.c.calls.findOne({ caller: '0671111111' }))!;
    await s.t.c.calls.insertOne({ ...older, _id: 900_001, callRef: 'legacy-1', caller: '0672222222', firstCall: undefined });
    await s.t.c.calls.updateOne({ _id: 900_001 }, { $unset: { firstCall: '' } });
    // The release that keeps them claims the callers of such calls once, at its start.
    await s.t.c.domains.updateMany({}, { $unset: { contactEntriesVersion: '' } });
    await migrateDatabase(s.t.c);
    const id = await callFrom('0672222222');
    expect((await s.t.c.calls.findOne({ _id: id }))!.firstCall).toBe(false);
  });

  it('shows firstCall in callStart', async () => {
    const id = await callFrom('0673333333');
    const call = (await s.t.c.calls.findOne({ _id: id }))!;
    const answer = await s.collector.post('/agent-api/callStart', { apiKey: CC_KEY, callerPhone: '0673333333', destinationPhone: call.trackingNumber, startDate: formatUtcDateTime(call.startedAt) });
    expect(answer.body.results[0].call).toMatchObject({ id, firstCall: true });
  });

  it('shows new callers in the calls log (column, filter, CSV) and on the overview, by source and keyword', async () => {
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const { from, to } = daysAroundNow();
    const paid = 'https://shop.test/?utm_source=google&utm_medium=cpc&utm_term=boiler+repair';
    const newcomer = await callFrom('0674444444', paid);
    const repeat = await callFrom('0674444444', paid);
    const log = async (firstCall: string) => (await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}&firstCall=${firstCall}`)).body.calls.map((c: { callId: number }) => c.callId);
    expect(await log('true')).toContain(newcomer);
    expect(await log('true')).not.toContain(repeat);
    expect(await log('false')).toContain(repeat);
    expect(await log('false')).not.toContain(newcomer);
    expect((await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}&firstCall=maybe`)).body).toEqual({ error: 'firstCall must be true (first calls only) or false (repeat calls only)' });
    const csv = (await owner.get(`/domains/shop.test/reports/calls.csv?from=${from}&to=${to}`)).text.trimEnd().split('\r\n');
    const firstCallColumn = csv[0]!.split(',').indexOf('firstCall');
    expect(firstCallColumn).toBeGreaterThan(0);
    expect(csv.find((line) => line.startsWith(`${newcomer},`))!.split(',')[firstCallColumn]).toBe('true');

    const overview = (await owner.get(`/domains/shop.test/reports/overview?from=${from}&to=${to}`)).body;
    const firsts = await s.t.c.calls.countDocuments({ domainId: 'shop.test', firstCall: true, status: { $ne: null } });
    expect(overview.totals.newCallers).toBe(firsts);
    expect(overview.totals.calls).toBeGreaterThan(firsts);
    expect(overview.sources.find((r: { source: string }) => r.source === 'paid')).toMatchObject({ calls: 2, newCallers: 1 });
    expect(overview.keywords.find((r: { keyword: string }) => r.keyword === 'boiler repair')).toMatchObject({ calls: 2, newCallers: 1 });
    expect(overview.days.reduce((n: number, d: { newCallers: number }) => n + d.newCallers, 0)).toBe(firsts);
  });
});
