// Many visitors at once against a small pool, through two collectors sharing one database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { API_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { until } from '../helpers/until.ts';

const POOL = ['0800000001', '0800000002', '0800000003', '0800000004', '0800000005'];
const VISITORS = 40;

let t: TestDatabase;
let instances: RunningCollector[];

beforeAll(async () => {
  t = await testDatabase('concurrency');
  await seed(t.c, trackingFixture({ exclusive: POOL }));
  instances = [await startCollector(t.db), await startCollector(t.db)];
});
afterAll(async () => {
  await Promise.all(instances.map((i) => i.close()));
  await t.close();
});

/** The leases current now: each is its slot's latest, and the slot is held until the lease's end. */
async function activeHolders(now = new Date()) {
  const held = await t.c.slots.find({ freeAt: { $gt: now }, code: null }).toArray();
  const leases = await Promise.all(held.map((slot) => t.c.leases.findOne({ _id: `${slot._id}@${slot.gen}` })));
  expect(leases.every((l, i) => l?.expiresAt.getTime() === held[i]!.freeAt.getTime())).toBe(true);
  return leases.map((l) => l!);
}

describe('the pool under concurrent load', () => {
  it('assigns exactly pool-size numbers, each to one visitor, and answers WARNING to the rest', async () => {
    const answers = await Promise.all(
      Array.from({ length: VISITORS }, (_, i) => instances[i % 2]!.post('/ospView', viewParams({ ip: `203.0.113.${i + 1}` }))),
    );
    const ok = answers.filter((a) => a.body.status === 'OK');
    const warnings = answers.filter((a) => a.body.status === 'WARNING');
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(ok).toHaveLength(POOL.length);
    expect(warnings).toHaveLength(VISITORS - POOL.length);
    const numbers = ok.map((a) => a.body.surtaxPhones['0123456789'].surtaxPhoneNumber);
    expect(new Set(numbers).size).toBe(POOL.length);

    const holders = await activeHolders();
    expect(holders).toHaveLength(POOL.length);
    expect(new Set(holders.map((h) => h.number)).size).toBe(POOL.length);
    // Every visit and view got an id of its own, across both processes.
    expect(new Set(answers.map((a) => a.body.visitId)).size).toBe(VISITORS);
    expect(new Set(answers.map((a) => a.body.viewId)).size).toBe(VISITORS);
  });

  it('hands released numbers to exactly one of many concurrent claimants each', async () => {
    const held = (await activeHolders()).map((h) => h.number);
    await Promise.all(held.map((n) => instances[0]!.post('/ospExpiration', { api_key: API_KEY, surtax_phone: n, expiration: 0 })));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => instances[i % 2]!.post('/ospClick', { api_key: API_KEY, phone: '0987654321', type: 1 })),
    );
    const ok = answers.filter((a) => a.body.status === 'OK');
    expect(ok).toHaveLength(POOL.length);
    expect(new Set(ok.map((a) => a.body.surtaxPhone.surtaxPhoneNumber)).size).toBe(POOL.length);
    expect(await activeHolders()).toHaveLength(POOL.length);
  });

  it('renews a returning visit\'s number by what the process remembers, and never a number another process gave away since (issue 25)', async () => {
    const [one, two] = instances as [RunningCollector, RunningCollector];
    await Promise.all((await activeHolders()).map((h) => one.post('/ospExpiration', { api_key: API_KEY, surtax_phone: h.number, expiration: 0 })));
    const numberOf = (body: any) => body.surtaxPhones?.['0123456789']?.surtaxPhoneNumber;
    // A visit of the first process holds a number for a second; its next view there renews it.
    const first = (await one.post('/ospView', viewParams({ expiration: 1 }))).body;
    const again = (await one.post('/ospView', viewParams({ visit_id: first.visitId, expiration: 1 }))).body;
    expect(numberOf(again)).toBe(numberOf(first));
    // The lease ends; the second process gives the numbers to other visitors, that one among them.
    const ended = Date.now() + 1000;
    await until(() => Date.now() > ended, 'the lease to end');
    const others = await Promise.all(POOL.map((_, i) => two.post('/ospView', viewParams({ ip: `198.51.100.${i + 1}` }))));
    expect(others.map((o) => numberOf(o.body))).toContain(numberOf(first));
    // Back on the first process, which remembers the number: the visit is refused it (every number is held).
    const back = (await one.post('/ospView', viewParams({ visit_id: first.visitId }))).body;
    expect(back).toMatchObject({ status: 'WARNING', visitId: first.visitId });
    const holders = await activeHolders();
    expect(holders).toHaveLength(POOL.length);
    expect(holders.filter((h) => h.number === numberOf(first).replaceAll('.', ''))).toEqual([expect.objectContaining({ visitId: others.find((o) => numberOf(o.body) === numberOf(first))!.body.visitId })]);
  });

  it('gives one viewId to concurrent repeats of a unique_view_id', async () => {
    const params = viewParams({ unique_view_id: 'double-submit', direct_display: false });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => instances[i % 2]!.post('/ospView', params)));
    expect(new Set(answers.map((a) => a.body.viewId)).size).toBe(1);
    expect(await t.c.views.countDocuments({ uniqueViewId: 'double-submit' })).toBe(1);
  });
});
