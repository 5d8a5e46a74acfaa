// The domain found by its key is kept by each process for DOMAIN_CACHE_MS (issue 25): a key rotated
// through one collector process is refused by it at once, and by another process on the same
// database once the bound has passed since the rotation; the new key works everywhere at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { API_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';

const BOUND_MS = 600;
const PASSWORD = 'domain cache owner password';

describe('the domain cache across processes', () => {
  let t: TestDatabase;
  let rotating: RunningCollector;
  let other: RunningCollector;
  beforeAll(async () => {
    t = await testDatabase('domain_cache');
    await seed(t.c, trackingFixture({ users: [{ username: 'owner@shop.test', password: PASSWORD }] }));
    rotating = await startCollector(t.db, { domainCacheMs: BOUND_MS });
    other = await startCollector(t.db, { domainCacheMs: BOUND_MS });
  });
  afterAll(async () => {
    await rotating?.close();
    await other?.close();
    await t?.close();
  });

  const view = (collector: RunningCollector, key: string) => collector.post('/ospView', viewParams({ api_key: key, direct_display: false }));

  it('refuses a rotated key at once where it was rotated, and within the bound in the other process', async () => {
    // Both processes have the domain in their cache.
    expect((await view(rotating, API_KEY)).body.status).toBe('OK');
    expect((await view(other, API_KEY)).body.status).toBe('OK');

    const owner = await signedInClient(rotating.baseUrl, 'owner@shop.test', PASSWORD);
    const rotatedAt = Date.now();
    const { key } = (await owner.call('POST', '/domains/shop.test/keys/api')).body as { key: string };

    expect((await view(rotating, API_KEY)).body).toMatchObject({ status: 'AUTHENTICATION_ERROR' });
    // The new key is a key neither process has seen: read, and taken, at once.
    expect((await view(rotating, key)).body.status).toBe('OK');
    expect((await view(other, key)).body.status).toBe('OK');

    // The other process may still take the old key, but not once the bound has passed since the rotation.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, rotatedAt + BOUND_MS + 50 - Date.now())));
    expect((await view(other, API_KEY)).body).toMatchObject({ status: 'AUTHENTICATION_ERROR' });
  });

  it('takes a setting saved in the back end at once in the process that saved it', async () => {
    const owner = await signedInClient(rotating.baseUrl, 'owner@shop.test', PASSWORD);
    const { key } = (await owner.call('POST', '/domains/shop.test/keys/api')).body as { key: string };
    const newVisit = async () => (await rotating.post('/ospView', viewParams({ api_key: key, ip: '198.51.100.9' }))).body.status;
    expect(await newVisit()).toBe('OK'); // no limit per address yet (the fixture's 0)
    expect((await owner.call('PATCH', '/domains/shop.test', { numbersPerAddress: 1 })).status).toBe(200);
    expect(await newVisit()).toBe('OK'); // its one number
    expect(await newVisit()).toBe('WARNING'); // the address holds its one number
  });
});
