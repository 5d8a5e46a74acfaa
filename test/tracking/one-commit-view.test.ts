// A view waits for one commit, not two (issue 25): a claim's lease is written beside the claim, and
// a new visit beside its first view. What that could break: a losing claim's lease standing in
// for the winner's, and a visit a crash lost while its first view was kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { NumberPool, type AssignRequest } from '../../collector/src/tracking/pool.ts';
import { restoreLostVisits } from '../../collector/src/tracking/lost-visits.ts';
import { ensureIndexes } from '../../collector/src/house/all-collections.ts';
import { recountTraffic } from '../../collector/src/reports/traffic-recount.ts';

const NUMBER = '0800000001';

let t: TestDatabase;
let collector: RunningCollector;

beforeAll(async () => {
  t = await testDatabase('one-commit-view');
  collector = await startCollector(t.db);
});
afterAll(async () => {
  await collector.close();
  await t.close();
});

async function freshPool() {
  await t.db.dropDatabase();
  await ensureIndexes(t.c);
  await seed(t.c, trackingFixture({ exclusive: [NUMBER] }));
}

describe('a lease written beside its claim', () => {
  it('is the winner’s when two processes claim one number at once; the loser’s is taken back', async () => {
    await freshPool();
    const pool = (await t.c.domains.findOne({ _id: 'shop.test' }))!.pools.find((p) => p.type === 1)!;
    // Two processes: each reads the free numbers and claims on its own.
    const processes = [new NumberPool(t.c), new NumberPool(t.c)];
    const request = (visitId: number, now: Date): AssignRequest => ({
      domainId: 'shop.test', pool, visitId, visitStarted: true, viewId: visitId, phone: '0123456789', clientData: null,
      expiresAt: new Date(now.getTime() + 60_000), now, addressLimit: null,
    });
    const ROUNDS = 30;
    for (let round = 0; round < ROUNDS; round++) {
      const now = new Date();
      const visits = [1000 + 2 * round, 1001 + 2 * round];
      const outcomes = await Promise.all(processes.map((p, i) => p.assign(request(visits[i]!, now))));
      const won = outcomes.flatMap((o) => ('lease' in o ? [o.lease] : []));
      expect(won).toHaveLength(1);
      expect(outcomes.filter((o) => 'refused' in o && o.refused === 'exhausted')).toHaveLength(1);
      const winner = visits[outcomes.findIndex((o) => 'lease' in o)];
      const slot = (await t.c.slots.findOne({ _id: NUMBER }))!;
      expect(slot.visitId).toBe(winner);
      expect(won[0]!._id).toBe(`${NUMBER}@${slot.gen}`);
      expect(await t.c.leases.findOne({ _id: won[0]!._id })).toMatchObject({ visitId: winner, gen: slot.gen });
      // The loser's lease is gone, whichever of the two was written first.
      expect(await t.c.leases.countDocuments({ visitId: { $in: visits } })).toBe(1);
      await processes[0]!.releaseNew(won, new Date());
    }
    expect(await t.c.leases.countDocuments({ slot: NUMBER })).toBe(ROUNDS);
  });

  it('replaces a losing claim’s lease that a crash left where the winner’s goes', async () => {
    await freshPool();
    // A claim of generation 1 that lost, in a process killed before it took its lease back.
    const now = new Date();
    await t.c.leases.insertOne({
      _id: `${NUMBER}@1`, slot: NUMBER, gen: 1, domainId: 'shop.test', number: NUMBER, code: null, type: 1,
      visitId: 999_999, viewId: 999_999, phone: '0123456789', clientData: null, assignedAt: now, expiresAt: now, claim: 'killed',
    });
    const { body } = await collector.post('/ospView', viewParams());
    expect(body.status).toBe('OK');
    expect(await t.c.leases.findOne({ _id: `${NUMBER}@1` })).toMatchObject({ visitId: body.visitId, viewId: body.viewId, gen: 1 });
    expect(await t.c.leases.countDocuments({ visitId: 999_999 })).toBe(0);
  });
});

describe('a visit written beside its first view', () => {
  it('is made again from that view by the repair when a crash kept the view and lost the visit', async () => {
    await freshPool();
    const { body } = await collector.post(
      '/ospView',
      viewParams({
        url: 'https://shop.test/boilers?utm_source=google&utm_medium=cpc&utm_term=boiler',
        referer_url: 'https://www.google.com/',
        unique_visitor_id: 'visitor-42',
        ga_client_id: '1234567890.1712345678',
        ga_session_id: '1712345678',
      }),
    );
    expect(body.status).toBe('OK');
    const visit = (await t.c.visits.findOne({ _id: body.visitId }))!;
    const kept = (await collector.post('/ospView', viewParams({ visit_id: 0, url: 'https://shop.test/' }))).body;
    // What a kill between the two commits leaves: the first view, not its visit.
    await t.c.visits.deleteOne({ _id: body.visitId });

    expect(await restoreLostVisits(t.c, 'shop.test')).toBe(1);
    expect(await t.c.visits.findOne({ _id: body.visitId })).toEqual(visit);
    expect(await t.c.visits.countDocuments({ _id: kept.visitId })).toBe(1);
    // Counted again with it: two visits, one with the keyword. The collector stops first: its traffic
    // buffer, which writes its views' counts within a second (these and earlier tests'), flushes as it
    // stops, and a flush after the recount would add them again on top of it.
    await collector.close();
    await recountTraffic(t.c, 'shop.test', 'UTC');
    const days = await t.c.trafficDays.find({ domainId: 'shop.test' }).toArray();
    expect(days.reduce((n, d) => n + (d.visits ?? 0), 0)).toBe(2);
    collector = await startCollector(t.db);
    expect(await restoreLostVisits(t.c, 'shop.test')).toBe(0);
  });
});
