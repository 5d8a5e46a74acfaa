import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { NumberPool } from '../../collector/src/tracking/pool.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';

let t: TestDatabase;
let collector: RunningCollector;

beforeAll(async () => {
  t = await testDatabase('pool');
  collector = await startCollector(t.db);
});
afterAll(async () => {
  await collector.close();
  await t.close();
});

/** A domain of its own per test: each seeds a fresh database. */
async function freshPool(numbers: string[], shared = ['0400000001']) {
  await t.db.dropDatabase();
  await seed(t.c, trackingFixture({ exclusive: numbers, shared }));
}

const numberOf = (body: any, phone = '0123456789') => body.surtaxPhones?.[phone]?.surtaxPhoneNumber;

describe('the online number pool', () => {
  it('answers WARNING with HTTP 200 when exhausted, keeping the ids of the recorded view', async () => {
    await freshPool(['0800000001']);
    expect((await collector.post('/ospView', viewParams())).body.status).toBe('OK');
    const { status, body } = await collector.post('/ospView', viewParams());
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'WARNING', errorMessage: expect.stringContaining('No tracking number available'), visitId: expect.any(Number), viewId: expect.any(Number) });
    expect(await t.c.views.findOne({ _id: body.viewId })).not.toBeNull();
  });

  it('gives back the numbers already taken for a page when another phone of it finds none', async () => {
    await freshPool(['0800000001', '0800000002']);
    await collector.post('/ospView', viewParams()); // holds one of the two
    const { body } = await collector.post('/ospView', viewParams({ nr_phones: 2, phones: '0123456789,0987654321' }));
    expect(body.status).toBe('WARNING');
    const third = await collector.post('/ospView', viewParams());
    expect(third.body.status).toBe('OK');
  });

  it('frees an expired number without any background job', async () => {
    await freshPool(['0800000001']);
    const first = (await collector.post('/ospView', viewParams({ expiration: 1 }))).body;
    expect((await collector.post('/ospView', viewParams())).body.status).toBe('WARNING');
    await new Promise((r) => setTimeout(r, 1100));
    const later = (await collector.post('/ospView', viewParams())).body;
    expect(later.status).toBe('OK');
    expect(numberOf(later)).toBe(numberOf(first));
  });

  it('puts a number back at once with expiration=0', async () => {
    await freshPool(['0800000001']);
    const first = (await collector.post('/ospView', viewParams({ expiration: 0 }))).body;
    expect(numberOf(first)).toBe('08.00.00.00.01');
    expect((await collector.post('/ospView', viewParams())).body.status).toBe('OK');
  });

  it('finds a number released a moment ago before it answers that the pool is exhausted', async () => {
    await freshPool(['0800000001']);
    const first = (await collector.post('/ospView', viewParams())).body;
    await collector.post('/ospExpiration', { api_key: 'track-test-key', surtax_phone: numberOf(first), expiration: 0 });
    const next = (await collector.post('/ospView', viewParams())).body; // at once, well inside the listing's lifetime
    expect(next.status).toBe('OK');
    expect(numberOf(next)).toBe(numberOf(first));
  });

  it('chooses, among free numbers, the one released longest ago', async () => {
    await freshPool(['0800000001', '0800000002', '0800000003']);
    const held = [];
    for (let i = 0; i < 3; i++) held.push((await collector.post('/ospView', viewParams())).body);
    // Release in the order 2, 3, 1: the next visitors must get them back in that order.
    for (const number of ['08.00.00.00.02', '08.00.00.00.03', '08.00.00.00.01']) {
      expect((await collector.post('/ospExpiration', { api_key: 'track-test-key', surtax_phone: number, expiration: 0 })).body.status).toBe('OK');
      await new Promise((r) => setTimeout(r, 5));
    }
    const next = [];
    for (let i = 0; i < 3; i++) next.push(numberOf((await collector.post('/ospView', viewParams())).body));
    expect(next).toEqual(['08.00.00.00.02', '08.00.00.00.03', '08.00.00.00.01']);
    expect(new Set(held.map((b) => numberOf(b))).size).toBe(3);
  });

  it('serves many visitors at once from one shared number, each with its own code', async () => {
    await freshPool(['0800000001'], ['0400000001']);
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push((await collector.post('/ospView', viewParams({ type: 9 }))).body.surtaxPhones['0123456789']);
    expect(new Set(answers.map((a) => a.surtaxPhoneNumber))).toEqual(new Set(['04.00.00.00.01']));
    expect(new Set(answers.map((a) => a.surtaxPhoneCode)).size).toBe(12);
    for (const a of answers) expect(a.surtaxPhoneCode).toMatch(/^\d{4}$/);
  });

  it('answers WARNING when the domain has no online pool', async () => {
    await t.db.dropDatabase();
    const fixture = trackingFixture();
    fixture.accounts[0]!.domains[0]!.pools = fixture.accounts[0]!.domains[0]!.pools.filter((p) => p.usage === 'offline') as never;
    await seed(t.c, fixture);
    expect((await collector.post('/ospView', viewParams())).body.status).toBe('WARNING');
  });

  it('finds who held a number at any past time, among its recent holders and long before them', async () => {
    await freshPool(['0800000001']);
    const pool = new NumberPool(t.c);
    const poolConfig = { type: 1, usage: 'online' as const, codeDigits: 0 };
    const t0 = Date.UTC(2026, 5, 1, 9);
    // Twenty visitors in turn, each holding the one number for a minute.
    for (let visitId = 1; visitId <= 20; visitId++) {
      const now = new Date(t0 + (visitId - 1) * 60_000);
      const outcome = await pool.assign({ domainId: 'shop.test', pool: poolConfig, visitId, visitStarted: true, viewId: visitId, phone: '0123456789', clientData: null, expiresAt: new Date(now.getTime() + 60_000), now, addressLimit: null });
      expect('lease' in outcome && outcome.lease.number).toBe('0800000001');
    }
    const number = { _id: '0800000001', codeDigits: 0 };
    const holderAt = async (ms: number) => (await pool.leaseAt(number, null, new Date(t0 + ms)))?.visitId ?? null;
    expect(await holderAt(19 * 60_000 + 30_000)).toBe(20); // the current holder
    expect(await holderAt(15 * 60_000 + 1)).toBe(16); // a recent one, read back by _id
    expect(await holderAt(2 * 60_000 + 30_000)).toBe(3); // older than the recent ones: through the index
    expect(await holderAt(30_000)).toBe(1);
    expect(await holderAt(-1)).toBeNull(); // before anyone held it
  });

  it('lets a request that waited claim a number freed after it began (issue 25: the free numbers are read later than it began)', async () => {
    await freshPool(['0800000001']);
    const pool = new NumberPool(t.c);
    // The only number was held until a second ago; the request began five seconds ago (it waited its turn under load).
    await t.c.slots.updateOne({ _id: '0800000001' }, { $set: { freeAt: new Date(Date.now() - 1000) } });
    const began = new Date(Date.now() - 5000);
    const outcome = await pool.assign({ domainId: 'shop.test', pool: { type: 1, usage: 'online', codeDigits: 0 }, visitId: 1, visitStarted: true, viewId: 1, phone: '0123456789', clientData: null, expiresAt: new Date(Date.now() + 60_000), now: began, addressLimit: null });
    expect(outcome).toMatchObject({ lease: { number: '0800000001' } });
  });

  it('gives each of more simultaneous visitors than one read of free numbers holds a number of its own (issue 25: the ones past the read were told the pool was exhausted)', async () => {
    const numbers = Array.from({ length: 150 }, (_, i) => `08000${String(i).padStart(5, '0')}`);
    await freshPool(numbers);
    const pool = new NumberPool(t.c);
    const now = new Date();
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        pool.assign({ domainId: 'shop.test', pool: { type: 1, usage: 'online', codeDigits: 0 }, visitId: i + 1, visitStarted: true, viewId: i + 1, phone: '0123456789', clientData: null, expiresAt: new Date(now.getTime() + 60_000), now, addressLimit: null }),
      ),
    );
    const held = outcomes.map((o) => ('lease' in o ? o.lease.number : o.refused));
    expect(held.filter((n) => !numbers.includes(n))).toEqual([]);
    expect(new Set(held).size).toBe(100);
    // The pool is then exhausted for real only once all of its numbers are held.
    const rest = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        pool.assign({ domainId: 'shop.test', pool: { type: 1, usage: 'online', codeDigits: 0 }, visitId: 200 + i, visitStarted: true, viewId: 200 + i, phone: '0123456789', clientData: null, expiresAt: new Date(now.getTime() + 60_000), now: new Date(), addressLimit: null }),
      ),
    );
    expect(rest.filter((o) => 'lease' in o)).toHaveLength(50);
    expect(rest.filter((o) => 'refused' in o && o.refused === 'exhausted')).toHaveLength(10);
  });
});
