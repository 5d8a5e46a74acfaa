// A process's memory of the holds per address (tracking/address-holds.ts) stays bounded: past its
// size, the oldest addresses whose holds have all ended are forgotten, and an address still holding
// its limit never is (its next claim is refused however many addresses came after it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase, type TestDatabase } from '../helpers/collector.ts';
import { AddressHolds } from '../../collector/src/tracking/address-holds.ts';

describe('the memory of holds per address', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await testDatabase('address_holds');
  });
  afterAll(async () => t?.close());

  it('forgets addresses whose holds ended, never one that holds its limit', async () => {
    const holds = new AddressHolds(t.c, 10);
    const now = new Date();
    const later = new Date(now.getTime() + 600_000);
    const limit = (address: string) => ({ address, max: 4 });
    for (let i = 0; i < 4; i++) expect(await holds.reserve('d.test', limit('192.0.2.1'), later, now)).not.toBeNull();
    // A hundred visitors, each given a number then releasing it.
    for (let i = 0; i < 100; i++) {
      const hold = (await holds.reserve('d.test', limit(`198.51.100.${i}`), later, now))!;
      holds.follow(hold, now);
    }
    await expect.poll(() => holds.remembered).toBeLessThanOrEqual(11);
    expect(await holds.reserve('d.test', limit('192.0.2.1'), later, now)).toBeNull();
    // A visitor forgotten is met again from nothing: it released what it held.
    expect(await holds.reserve('d.test', limit('198.51.100.0'), later, now)).not.toBeNull();
  });
});
