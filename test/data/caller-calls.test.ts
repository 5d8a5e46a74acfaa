// The data API's caller filter reads each caller's entries by `_id` (data/caller-calls.ts), kept at
// every call write: a call listed once at its latest start and status, whatever order its writes
// land in; calls stored before the entries were kept are found after the migration.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { DATA_KEY, trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { CallerCalls } from '../../collector/src/data/caller-calls.ts';
import { migrateDatabase } from '../../collector/src/house/migrations.ts';

const NUMBER = '0100000001'; // an offline number, once assigned: its calls keep the status reported

describe('caller filter', () => {
  const s = useSeededCollector('caller_calls', trackingFixture({}), { telephonyApiKey: TELEPHONY_KEY });
  const byCaller = async (caller: string, query: Record<string, string | number> = {}) =>
    (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: '2026-02-01', end_date: '2026-02-28', page: 1, limit: 50, caller_phone: caller, ...query })).body;
  beforeAll(async () => {
    await s.collector.get('/offline-numbers-api', { key: 'offline-test-key', action: 'assign', phone_number: '0155555555', description: 'Flyer', type: 6 });
  });
  const call = (callRef: string, caller: string, startDate: Date, extra: Record<string, unknown> = {}) => reportCall(s.collector.baseUrl, { callRef, trackingNumber: NUMBER, startDate, callerPhone: caller, duration: 30, ...extra });

  it('lists a caller’s calls of the range, oldest first, with the other filters and by day', async () => {
    const starts = [Date.UTC(2026, 1, 10, 9), Date.UTC(2026, 1, 3, 9), Date.UTC(2026, 1, 20, 9), Date.UTC(2026, 2, 5, 9)];
    for (const [i, at] of starts.entries()) expect((await call(`cc-${i}`, '0611000001', new Date(at), i === 2 ? { status: 'BUSY' } : {})).status).toBe(200);
    await call('cc-other', '0611000002', new Date(Date.UTC(2026, 1, 10, 9)));
    const all = await byCaller('06 11 00 00 01');
    expect(all.total_results).toBe(3); // the March call is outside the range
    expect(all.results.map((r: { start_date: string }) => r.start_date.slice(0, 2))).toEqual(['03', '10', '20']);
    expect((await byCaller('0611000001', { status: 'BUSY' })).results).toHaveLength(1);
    expect((await byCaller('0611000001', { tracking_phone: NUMBER })).total_results).toBe(3);
    expect((await byCaller('0611000001', { tracking_phone: '0100000002' })).total_results).toBe(0);
    const days = await byCaller('0611000001', { group_by_day: 'true' });
    expect(days.results.filter((d: { calls: number }) => d.calls > 0).map((d: { date: string }) => d.date)).toEqual(['2026-02-03', '2026-02-10', '2026-02-20']);
  });

  it('lists a call moved to another start once, at its new start', async () => {
    await call('cc-move', '0611000003', new Date(Date.UTC(2026, 1, 5, 9)));
    // A later report of the same call with another start (a carrier's correction).
    await call('cc-move', '0611000003', new Date(Date.UTC(2026, 1, 25, 9)), { duration: 90 });
    const moved = await byCaller('0611000003');
    expect(moved.total_results).toBe(1);
    expect(moved.results[0]).toMatchObject({ start_date: expect.stringMatching(/^25\/02\/2026/), duration: 90 });
  });

  it('keeps the latest revision when an older write arrives late', async () => {
    const { body } = await call('cc-late', '0611000004', new Date(Date.UTC(2026, 1, 6, 9)), { status: 'BUSY' });
    const stored = (await s.t.c.calls.findOne({ _id: body.callId }))!;
    // The write of revision 0 (no outcome yet) lands after the current one.
    await new CallerCalls(s.t.c).record(null, { ...stored, status: null, rev: 0 });
    expect((await byCaller('0611000004')).results).toEqual([expect.objectContaining({ status: 'BUSY' })]);
  });

  it('counts and pages calls of one caller arriving at once', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => call(`cc-burst-${i}`, '0611000005', new Date(Date.UTC(2026, 1, 12, 9, i)))));
    expect((await byCaller('0611000005')).total_results).toBe(12);
    const second = await byCaller('0611000005', { limit: 10, page: 2 });
    expect(second).toMatchObject({ total_results: 12 });
    expect(second.results.map((r: { start_date: string }) => r.start_date.slice(11, 16))).toEqual(['09:10', '09:11']);
  });

  it('finds the calls stored before the entries were kept, after the migration', async () => {
    const { body } = await call('cc-old', '0611000006', new Date(Date.UTC(2026, 1, 7, 9)));
    const stored = (await s.t.c.calls.findOne({ _id: body.callId }))!;
    // As the release before stored it: the call, no entry.
    await s.t.c.calls.insertOne({ ...stored, _id: 990_001, callRef: 'cc-old-legacy', startedAt: new Date(Date.UTC(2026, 1, 8, 9)) });
    expect((await byCaller('0611000006')).total_results).toBe(1);
    await s.t.c.domains.updateMany({}, { $unset: { contactEntriesVersion: '' } });
    await migrateDatabase(s.t.c);
    expect((await byCaller('0611000006')).results.map((r: { call_id: number }) => r.call_id)).toEqual([body.callId, 990_001]);
  });
});
