import { describe, expect, it } from 'vitest';
import { ospExpirationResponse } from '@ringtrail/shared';
import { useSeededCollector } from '../helpers/collector.ts';
import { API_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';

const s = useSeededCollector('expiration', trackingFixture({ exclusive: ['0800000001', '0800000002', '0800000003', '0800000004'], defaultExpiration: 600 }));

async function assignOne(extra = {}) {
  const { body } = await s.collector.post('/ospView', viewParams(extra));
  return body.surtaxPhones['0123456789'] as { surtaxPhoneNumber: string; surtaxPhoneCode: string | null };
}

const utc = (s: string) => new Date(s.replace(' ', 'T') + 'Z').getTime();

describe('/ospExpiration', () => {
  it('extends an assigned number by a positive number of seconds and answers expiresAt in UTC', async () => {
    const { surtaxPhoneNumber } = await assignOne();
    const before = Date.now();
    const { body } = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: surtaxPhoneNumber, expiration: 3600 });
    expect(ospExpirationResponse.parse(body)).toMatchObject({ status: 'OK', surtaxPhone: surtaxPhoneNumber });
    expect(utc(body.expiresAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(utc(body.expiresAt)).toBeLessThanOrEqual(Date.now() + 3600_000);
  });

  it('uses the domain default for -1 and when expiration is absent', async () => {
    const { surtaxPhoneNumber } = await assignOne();
    for (const expiration of [-1, undefined]) {
      const { body } = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: surtaxPhoneNumber, expiration });
      expect(Math.abs(utc(body.expiresAt) - (Date.now() + 600_000))).toBeLessThan(5000);
    }
  });

  it('releases at once with 0, then answers WARNING and updates nothing', async () => {
    const { surtaxPhoneNumber } = await assignOne();
    const released = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: surtaxPhoneNumber, expiration: 0 });
    expect(released.body.status).toBe('OK');
    expect(Math.abs(utc(released.body.expiresAt) - Date.now())).toBeLessThan(5000);
    const leasesBefore = await s.t.c.leases.find({ number: surtaxPhoneNumber.replace(/\./g, '') }).toArray();
    const { status, body } = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: surtaxPhoneNumber, expiration: 3600 });
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'WARNING', errorMessage: expect.stringContaining('already expired') });
    expect(await s.t.c.leases.find({ number: surtaxPhoneNumber.replace(/\./g, '') }).toArray()).toEqual(leasesBefore);
  });

  it('answers WARNING for a number of the pool that was never assigned', async () => {
    await s.t.c.trackingNumbers.insertOne({ _id: '0800000099', domainId: 'shop.test', type: 1, usage: 'online', codeDigits: 0 });
    const { body } = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: '08.00.00.00.99', expiration: 60 });
    expect(body.status).toBe('WARNING');
  });

  it('refuses a number that is not one of the domain tracking numbers', async () => {
    for (const surtax_phone of ['06.11.22.33.44', '01.00.00.00.01']) {
      const { body } = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone, expiration: 60 });
      expect(body).toMatchObject({ status: 'INVALID_PARAMETER', errorMessage: expect.stringContaining('surtax_phone') });
    }
  });

  it('needs the code for a shared number, and then updates only that visitor', async () => {
    const a = await assignOne({ type: 9 });
    const b = await assignOne({ type: 9 });
    const missing = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: a.surtaxPhoneNumber, expiration: 0 });
    expect(missing.body).toMatchObject({ status: 'MISSING_PARAMETER', errorMessage: expect.stringContaining('surtax_phone_code') });
    const released = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: a.surtaxPhoneNumber, surtax_phone_code: a.surtaxPhoneCode!, expiration: 0 });
    expect(released.body.status).toBe('OK');
    const other = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: b.surtaxPhoneNumber, surtax_phone_code: b.surtaxPhoneCode!, expiration: 60 });
    expect(other.body.status).toBe('OK');
    const again = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: a.surtaxPhoneNumber, surtax_phone_code: a.surtaxPhoneCode!, expiration: 60 });
    expect(again.body.status).toBe('WARNING');
  });
});
