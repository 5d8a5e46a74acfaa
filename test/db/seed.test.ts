import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { readFixtureFile } from '../../collector/src/cli/fixture-file.ts';
import { seedFixture, SeedError } from '../../collector/src/cli/seed-service.ts';
import { seed, testDatabase, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await testDatabase('seed');
});
afterAll(() => t.close());

async function snapshot() {
  const names = ['accounts', 'domains', 'tracking_numbers', 'slots'];
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await t.db.collection(n).find().sort({ _id: 1 }).toArray()])));
}

describe('seed', () => {
  it('loads the demo fixture, and loading it again changes nothing', async () => {
    const demo = await readFixtureFile(path.resolve('collector/fixtures/demo.json'));
    const summary = await seedFixture(t.c, demo);
    expect(summary).toEqual({ accounts: 1, domains: 1, numbers: 12 });
    const once = await snapshot();
    await seedFixture(t.c, demo);
    expect(await snapshot()).toEqual(once);
  });

  it('keeps who holds a number when the fixture is loaded again', async () => {
    const heldUntil = new Date(Date.now() + 60_000);
    await t.c.slots.updateOne({ _id: '0800000001' }, { $set: { gen: 3, freeAt: heldUntil, visitId: 7, phone: '0123456789' } });
    await seedFixture(t.c, await readFixtureFile(path.resolve('collector/fixtures/demo.json')));
    expect(await t.c.slots.findOne({ _id: '0800000001' })).toMatchObject({ gen: 3, freeAt: heldUntil, visitId: 7, domainId: 'acme.example' });
  });

  it('stores keys hashed, never as sent (but the public key, which every page of the site publishes)', async () => {
    const everything = JSON.stringify(await snapshot());
    for (const key of ['track-acme-demo', 'data-acme-demo', 'offline-acme-demo', 'customer-acme-demo', 'cc-acme-demo']) {
      expect(everything).not.toContain(key);
    }
    expect(await t.c.domains.findOne({ _id: 'acme.example' })).toMatchObject({ publicKey: 'pk-acme-demo', publicKeyHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await t.c.domains.findOne({ _id: 'acme.example' }))?.apiKeyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a number that belongs to another domain, a key shared by two domains, a number with the wrong prefix', async () => {
    const stolenNumber = trackingFixture({ exclusive: ['0800000001'] });
    await expect(seed(t.c, stolenNumber)).rejects.toThrow(/0800000001 already belongs to acme.example/);
    const sharedKey = trackingFixture();
    sharedKey.accounts[0]!.domains[0]!.apiKey = 'track-acme-demo';
    await expect(seed(t.c, sharedKey)).rejects.toThrow(SeedError);
    const wrongPrefix = trackingFixture({ exclusive: ['0900000001'] });
    await expect(seed(t.c, wrongPrefix)).rejects.toThrow(/prefix of type 1/);
  });

  it("sets a user's alert choices per domain of the account, and refuses another account's domain or an unknown choice", async () => {
    const fixture = trackingFixture({ exclusive: ['0800000101'], shared: ['0400000101'] });
    const account = fixture.accounts[0]!;
    account.domains[0]!.publicKey = 'pk-alerts';
    account.domains[0]!.pools[2]!.numbers = ['0100000101'];
    (account as { users: unknown[] }).users = [{ username: 'ann@shop.test', role: 'analyst', domains: ['shop.test'], alerts: { 'shop.test': { newLead: 'hourly', weekly: true } } }];
    await seed(t.c, fixture);
    expect(await t.c.alertChoices.findOne({ _id: 'ann@shop.test|shop.test' })).toMatchObject({ newLead: 'hourly', weekly: true });
    (account as { users: unknown[] }).users = [{ username: 'ann@shop.test', alerts: { 'acme.example': { weekly: true } } }];
    await expect(seed(t.c, fixture)).rejects.toThrow('ann@shop.test: alerts for acme.example, which is not a domain of the account Test account');
    (account as { users: unknown[] }).users = [{ username: 'ann@shop.test', alerts: { 'shop.test': { missedCall: 'daily' } } }];
    await expect(seed(t.c, fixture)).rejects.toThrow(/missedCall/);
  });

  it('names the file and the field of an invalid fixture', async () => {
    const file = path.resolve('test/db/invalid-fixture.json');
    await expect(readFixtureFile(file)).rejects.toThrow(/invalid-fixture.json[\s\S]*accounts.0.domains.0.pools.0.type/);
  });
});
