// The data API's summaries, the daily rollups and the hourly page buckets, and the back end's calls
// by source (reports/call-sources.ts): kept right at write time
// through every kind of report, equal to what a rebuild from the calls gives, and paging from them
// reads each call once whatever the filter.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitEntry } from '../../collector/src/data/raw-entries.ts';
import { CallSummaries } from '../../collector/src/house/call-summaries.ts';
import { localTime } from '../../collector/src/domains/time-zone.ts';
import { seed, useSeededCollector } from '../helpers/collector.ts';
import { DATA_KEY, trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const fixture = trackingFixture({ timeZone: 'Europe/Paris' });
const OFFLINE = '0100000001'; // an offline number: its calls keep the status their carrier reports
const STATUSES = ['SUCCESS', 'BUSY', 'NORESPONSE', 'ANOMALY'] as const;

/** The counters of a rollup, without the zeros a call leaves where it no longer counts; undefined when all are zero. */
function withoutZeros(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  if ('calls' in node) {
    const t = node as { calls: number; duration: number; revenueCents: number };
    return t.calls === 0 && t.duration === 0 && t.revenueCents === 0 ? undefined : t;
  }
  const kept = Object.entries(node).flatMap(([k, v]) => {
    const pruned = withoutZeros(v);
    return pruned === undefined ? [] : [[k, pruned] as const];
  });
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/** Plain counters without the zeros (and the objects left empty) of calls that moved; undefined when all are zero. */
function withoutZeroCounts(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node === 0 ? undefined : node;
  const kept = Object.entries(node).flatMap(([k, v]) => {
    const pruned = withoutZeroCounts(v);
    return pruned === undefined ? [] : [[k, pruned] as const];
  });
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

describe('daily call rollups', () => {
  const s = useSeededCollector('call_days', fixture, { telephonyApiKey: TELEPHONY_KEY });
  const data = (query: Record<string, unknown>) => s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', page: 1, limit: 10, ...query });
  const rollups = () => s.t.c.callDays.find({ domainId: 'shop.test' }).sort({ day: 1 }).toArray();
  /** Every call's live entry in the page buckets (tombstones left out), each call's once at most. */
  async function pageEntries() {
    const entries = new Map<string, unknown>();
    for (const bucket of await s.t.c.callPages.find({ domainId: 'shop.test' }).toArray()) {
      for (const [id, entry] of Object.entries(bucket.calls)) {
        if (entry === null) continue;
        expect(entries.has(id)).toBe(false);
        entries.set(id, { entry, hour: bucket.hour.toISOString() }); // revisions left out: they restart at a rebuild
      }
    }
    return Object.fromEntries([...entries].sort(([a], [b]) => Number(a) - Number(b)));
  }
  /** The summaries as a rebuild from the calls makes them, with the written ones put back afterwards. */
  async function rebuilt() {
    const written = { days: await rollups(), pages: await s.t.c.callPages.find({ domainId: 'shop.test' }).toArray(), traffic: await s.t.c.trafficDays.find({ domainId: 'shop.test' }).toArray() };
    await new CallSummaries(s.t.c).rebuild('shop.test', 'Europe/Paris');
    const fresh = { days: await rollups(), pages: await pageEntries(), sources: await callSources() };
    await s.t.c.callDays.deleteMany({ domainId: 'shop.test' });
    await s.t.c.callPages.deleteMany({ domainId: 'shop.test' });
    await s.t.c.trafficDays.deleteMany({ domainId: 'shop.test' });
    if (written.days.length > 0) await s.t.c.callDays.insertMany(written.days);
    if (written.pages.length > 0) await s.t.c.callPages.insertMany(written.pages);
    if (written.traffic.length > 0) await s.t.c.trafficDays.insertMany(written.traffic);
    return fresh;
  }
  /** The back end's calls by day, status class and source, without the zeros of calls that moved. */
  const callSources = async () =>
    (await s.t.c.trafficDays.find({ domainId: 'shop.test' }).sort({ day: 1 }).toArray())
      .map((d) => ({ day: d.day, calls: withoutZeroCounts(d.calls) }))
      .filter((d) => d.calls !== undefined);
  /** Zero counters left by a call that moved to another day or status say nothing: compare without them. */
  const nonZero = (docs: Awaited<ReturnType<typeof rollups>>) =>
    docs.map((d) => ({ day: d.day, counts: withoutZeros({ statuses: d.statuses, by: d.by ?? {} }) })).filter((d) => d.counts !== undefined);

  it('stay equal to a rebuild from the calls through new calls, changed outcomes, moved days and hours, and simultaneous reports', async () => {
    await s.collector.get('/offline-numbers-api', { key: 'offline-test-key', action: 'assign', phone_number: '0155555555', description: 'Flyer', type: 6 });
    const report = fc.record({
      ref: fc.integer({ min: 0, max: 5 }),
      // Around Paris midnight of 2 and 3 March, so a corrected start time can move a call to another day.
      minute: fc.integer({ min: 22 * 60, max: 26 * 60 }),
      day: fc.integer({ min: 1, max: 2 }),
      status: fc.constantFrom(...STATUSES),
      duration: fc.integer({ min: 0, max: 900 }),
      revenue: fc.integer({ min: 0, max: 1000 }).map((c) => c / 100),
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(report, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }), async (waves) => {
        round++;
        // Each wave's reports go at once, as carriers resend them.
        for (const wave of waves) {
          const answers = await Promise.all(
            wave.map((r) =>
              reportCall(s.collector.baseUrl, {
                callRef: `r${round}-${r.ref}`,
                trackingNumber: OFFLINE,
                startDate: new Date(Date.UTC(2026, 2, r.day, 0, r.minute)),
                status: r.status,
                duration: r.duration,
                revenue: r.revenue,
              }),
            ),
          );
          expect(answers.map((a) => a.status)).toEqual(wave.map(() => 200));
        }
        const kept = { days: nonZero(await rollups()), pages: await pageEntries(), sources: await callSources() };
        const fresh = await rebuilt();
        expect(kept).toEqual({ days: nonZero(fresh.days), pages: fresh.pages, sources: fresh.sources });
        expect(kept.sources.length).toBeGreaterThan(0);
      }),
      { numRuns: 15 },
    );
    const calls = await s.t.c.calls.countDocuments({ domainId: 'shop.test' });
    const daily = await data({ group_by_day: 'true', start_date: '2026-03-01', end_date: '2026-03-04' });
    expect(daily.body.results.reduce((n: number, r: { calls: number }) => n + r.calls, 0)).toBe(calls);
  });

  it('keeps a call\'s latest revision in the page buckets when an older one is written late, even after the call moved hours', async () => {
    const pages = new CallSummaries(s.t.c).pages;
    const stored = (await s.t.c.calls.findOne({ domainId: 'shop.test' }))!;
    const at = (rev: number, hour: number, status: 'SUCCESS' | 'BUSY') => ({ ...stored, _id: 999_001, rev, status, startedAt: new Date(Date.UTC(2026, 4, 1, hour, 30)) });
    const live = async () => {
      const buckets = await s.t.c.callPages.find({ [`calls.999001`]: { $exists: true } }).toArray();
      return buckets.flatMap((b) => {
        const entry = b.calls['999001'];
        return entry ? [`${b.hour.getUTCHours()}h v${b.revs['999001']} ${JSON.parse(splitEntry(Buffer.from(entry)).head)[1]}`] : [];
      });
    };
    await pages.record(null, at(0, 9, 'SUCCESS'));
    await pages.record(at(1, 9, 'SUCCESS'), at(2, 9, 'BUSY'));
    await pages.record(at(0, 9, 'SUCCESS'), at(1, 9, 'SUCCESS')); // revision 1 arrives after revision 2
    expect(await live()).toEqual(['9h v2 BUSY']);
    await pages.record(at(2, 9, 'BUSY'), at(3, 11, 'BUSY')); // the start time was corrected: another hour
    await pages.record(at(1, 9, 'SUCCESS'), at(2, 9, 'BUSY')); // a late write of the old hour's revision
    expect(await live()).toEqual(['11h v3 BUSY']);
    await s.t.c.callPages.updateMany({}, { $unset: { 'calls.999001': '', 'revs.999001': '' } });
  });

  it('pages a status filter across days from the rollups, each call once, oldest first', async () => {
    for (const status of ['SUCCESS', 'BUSY,NORESPONSE'] as const) {
      const wanted = status.split(',');
      const expected = await s.t.c.calls.countDocuments({ domainId: 'shop.test', status: { $in: wanted as never } });
      expect(expected).toBeGreaterThan(0);
      for (const limit of [10, 13]) {
        const seen: string[] = [];
        let page: number | undefined = 1;
        while (page !== undefined) {
          const res: { body: any } = await data({ start_date: '2026-03-01', end_date: '2026-03-04', status, page, limit });
          expect(res.body.total_results).toBe(expected);
          expect(res.body.results.every((r: { status: string }) => wanted.includes(r.status))).toBe(true);
          seen.push(...res.body.results.map((r: { start_date: string; duration: number; revenue: number }) => `${r.start_date}|${r.duration}|${r.revenue}`));
          page = res.body.next_page;
        }
        expect(seen).toHaveLength(expected);
        const times = seen.map((k) => k.split('|')[0]!.replace(/^(\d\d)\/(\d\d)\/(\d{4}) /, '$3-$2-$1 '));
        expect(times).toEqual([...times].sort());
      }
    }
  });

  it('counts the days again in the new time zone when the fixture changes it', async () => {
    const secondOfMarch = () => s.t.c.callDays.findOne({ domainId: 'shop.test', day: '2026-03-02' });
    const parisDay = await secondOfMarch();
    await seed(s.t.c, trackingFixture({ timeZone: 'America/New_York' }));
    const rebuilt = await new CallSummaries(s.t.c).days.read('shop.test', '2026-02-28', '2026-03-04', null);
    const expected = await s.t.c.calls.find({ domainId: 'shop.test' }).toArray();
    const newYorkDays = new Set(expected.map((call) => localTime(call.startedAt, 'America/New_York').day));
    expect(new Set(rebuilt.keys())).toEqual(newYorkDays);
    expect(newYorkDays).not.toEqual(new Set(expected.map((call) => localTime(call.startedAt, 'Europe/Paris').day)));
    await seed(s.t.c, fixture); // back to Paris for the tests that follow
    expect(await secondOfMarch()).toEqual(parisDay);
  });

  it('answers the same from the summaries as through the index, with each filter they count by', async () => {
    const range = { start_date: '2026-03-01', end_date: '2026-03-04' };
    // Enough calls of each filtered status for page 3 whatever the first test left (it is random).
    for (let i = 0; i < 30; i++) {
      const status = i % 2 ? 'SUCCESS' : 'ANOMALY';
      expect((await reportCall(s.collector.baseUrl, { callRef: `paged-${i}`, trackingNumber: OFFLINE, startDate: new Date(Date.UTC(2026, 2, 2, 12, i)), status })).status).toBe(200);
    }
    const filters = [{}, { tracking_phone: OFFLINE }, { phone: '01 55 55 55 55' }, { offline_phone_description: 'Flyer' }, { phone: '0999999999' }];
    const modes = [{ group_by_day: 'true' }, { page: 1, limit: 5000 }, { page: 2, limit: 11 }, { page: 3, limit: 10, status: 'SUCCESS,ANOMALY' }];
    for (const filter of filters) {
      for (const mode of modes) {
        const fromSummaries = await data({ ...range, ...filter, ...mode });
        // Every call has this caller: a caller filter reads the caller's entries (data/caller-calls.ts).
        const throughIndex = await data({ ...range, ...filter, ...mode, caller_phone: '0611223344' });
        expect(fromSummaries.body.status).toBe('OK');
        if (!('phone' in filter && filter.phone === '0999999999')) expect(fromSummaries.body.results.some((r: { calls?: number }) => r.calls !== 0)).toBe(true);
        expect(throughIndex.body).toEqual(fromSummaries.body);
      }
    }
  });
});
