// /data-api over HTTP: parameters and errors, filters, paging, daily totals, SMS, time zone and privacy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { DATA_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { daysAroundNow } from '../helpers/days.ts';

/** Paris is UTC+1 in January: 23:30 UTC on 14 January is 00:30 on the 15th there. */
const fixture = trackingFixture({ timeZone: 'Europe/Paris', callerPrivacy: 'partial' });
const STATUSES = ['SUCCESS', 'BUSY', 'NORESPONSE'] as const;

describe('data API', () => {
  const s = useSeededCollector('data_api', fixture, { telephonyApiKey: TELEPHONY_KEY });
  const data = (query: Record<string, unknown>) => s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: '2026-01-01', end_date: '2026-01-31', page: 1, limit: 10, ...query });

  /** 25 calls from 10 to 22 January, 0800000002 then 0800000003 alternately, one a day or two. */
  async function seedCalls(): Promise<void> {
    for (let i = 0; i < 25; i++) {
      const startDate = new Date(Date.UTC(2026, 0, 10 + Math.floor(i / 2), 9 + (i % 2), i));
      const res = await reportCall(s.collector.baseUrl, {
        callRef: `seed-${i}`,
        trackingNumber: i % 2 ? '0800000003' : '0800000002',
        callerPhone: `06000000${String(i).padStart(2, '0')}`,
        startDate,
        status: STATUSES[i % 3],
        duration: 10 * i,
        revenue: 0.5,
      });
      expect(res.status).toBe(200);
    }
  }

  it('refuses a missing or wrong key with Invalid api key and nothing else', async () => {
    for (const api_key of [undefined, 'nope', 'track-test-key']) {
      const res = await data({ api_key, type: 'bogus' });
      expect(res).toEqual({ status: 200, body: { status: 'ERROR', errors: ['Invalid api key'] } });
    }
  });

  it('lists every validation error of one request together', async () => {
    const res = await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'faxes', start_date: '2026-02-30', limit: 5 });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ERROR');
    expect(res.body.errors).toEqual(
      expect.arrayContaining(['Missing parameter end_date', 'Missing parameter page', 'Invalid parameter type', 'Invalid date 2026-02-30', 'Limit must be between 10 and 5000']),
    );
    expect(res.body.errors).toHaveLength(5);
    for (const limit of [9, 5001, 'ten']) expect((await data({ limit })).body.errors).toEqual(['Limit must be between 10 and 5000']);
    for (const limit of [10, 5000]) expect((await data({ limit })).body.status).toBe('OK');
    expect((await data({ start_date: '2026/01/01' })).body.errors).toEqual(['Invalid date 2026/01/01']);
    // Dates of the right shape that no calendar has made the date check throw: 500, Cannot handle request.
    for (const day of ['2026-13-45', '0000-00-00']) expect(await data({ start_date: day })).toEqual({ status: 200, body: { status: 'ERROR', errors: [`Invalid date ${day}`] } });
    expect((await data({ status: 'SUCCESS,LOST' })).body.errors).toEqual(['Invalid parameter status']);
    expect((await data({ page: 0 })).body.errors).toEqual(['Invalid parameter page']);
    expect((await data({ type: 'sms', status: 'SUCCESS' })).body.errors).toEqual(['Invalid parameter status: not for type=sms']);
  });

  it('covers at most 400 days a request, of any type, counted without walking them', async () => {
    const daily = await data({ start_date: '2025-01-01', end_date: '2026-02-04', group_by_day: 'true' });
    expect(daily.body.status).toBe('OK');
    expect(daily.body.results).toHaveLength(400);
    const tooLong = ['Invalid parameter end_date: a request covers at most 400 days'];
    expect((await data({ start_date: '2025-01-01', end_date: '2026-02-05' })).body.errors).toEqual(tooLong);
    expect((await data({ type: 'sms', start_date: '2025-01-01', end_date: '2026-02-05' })).body.errors).toEqual(tooLong);
    // The probe's request: before, it walked 3.6 million days and ran the collector out of memory.
    expect(await data({ start_date: '0001-01-01', end_date: '9999-12-31', group_by_day: 'true' })).toEqual({ status: 200, body: { status: 'ERROR', errors: tooLong } });
  });

  it('pages through every call of the range, each exactly once, oldest first', async () => {
    await seedCalls();
    const first = await data({});
    expect(first.body).toMatchObject({ status: 'OK', total_results: 25, next_page: 2 });
    expect(first.body.results).toHaveLength(10);

    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 10, max: 30 }), async (limit) => {
        const seen: string[] = [];
        let page: number | undefined = 1;
        while (page !== undefined) {
          const res: { body: any } = await data({ page, limit });
          expect(res.body.total_results).toBe(25);
          seen.push(...res.body.results.map((r: { caller: string; start_date: string }) => `${r.start_date}|${r.caller}`));
          page = res.body.next_page;
        }
        expect(seen).toHaveLength(25);
        expect(new Set(seen).size).toBe(25);
      }),
      { numRuns: 8 },
    );
    const last = await data({ page: 3 });
    expect(last.body.results).toHaveLength(5);
    expect(last.body).not.toHaveProperty('next_page');
    const beyond = await data({ page: 9 });
    expect(beyond.body).toEqual({ status: 'OK', total_results: 25, results: [] });
  });

  it('shows each field in its own format, the caller masked by the domain privacy', async () => {
    const [call] = (await data({ start_date: '2026-01-10', end_date: '2026-01-10' })).body.results;
    expect(call).toEqual({
      start_date: '10/01/2026 10:00:00',
      caller: '060000XXXX',
      tracking_number: '0800000002',
      phone: '0123456789',
      trigger_type: 1,
      source: '',
      url: '',
      referer: '',
      keyword: '',
      call_path: '',
      status: 'NOTASSIGNED',
      duration: 0,
      billing_duration: 0,
      revenue: 0.5,
      postcode: '',
      keypad: '',
      is_redirect: false,
      expired_redirect: false,
      answer_time: 4,
      // Ours: nobody held the number, so no visit could have been shown it.
      match_confidence: 'none',
      match_candidates: 0,
      first_call: true,
      lead: false,
      // Ours: no visit led to it, so no first touch.
      first_touch_source: null,
      first_touch_keyword: null,
      first_touch_at: null,
      // Ours: the stable id to deduplicate on, and no verdict given.
      call_id: expect.any(Number),
      verdict: null,
      // Ours: no visit led to it, so no campaign.
      utm_campaign: null,
      // Ours: the person of the caller's number.
      person_id: expect.any(Number),
      // Ours: nothing was recorded.
      recording: null,
      transcript: null,
      key_phrases: null,
      // Ours: no person or rule tagged or valued it.
      tags: [],
      value: null,
    });
  });

  it('filters by destination, tracking number, caller and a list of statuses', async () => {
    expect((await data({ tracking_phone: '08.00.00.00.03', limit: 50 })).body.total_results).toBe(12);
    expect((await data({ caller_phone: '06 00 00 00 07' })).body.total_results).toBe(1);
    expect((await data({ phone: '0123456789' })).body.total_results).toBe(25);
    expect((await data({ phone: '0987654321' })).body.total_results).toBe(0);
    expect((await data({ status: 'NOTASSIGNED' })).body.total_results).toBe(25);
    expect((await data({ status: 'BUSY,SUCCESS' })).body.total_results).toBe(0);
  });

  it('returns every day of the range in daily mode, days without calls included', async () => {
    const res = await data({ group_by_day: 'true', start_date: '2026-01-09', end_date: '2026-01-23', page: 1, limit: 5000 });
    expect(res.body).not.toHaveProperty('total_results');
    expect(res.body).not.toHaveProperty('next_page');
    expect(res.body.results).toHaveLength(15);
    expect(res.body.results[0]).toEqual({ date: '2026-01-09', calls: 0, duration: 0, revenue: 0 });
    expect(res.body.results[1]).toEqual({ date: '2026-01-10', calls: 2, duration: 10, revenue: 1 });
    expect(res.body.results.reduce((n: number, r: { calls: number }) => n + r.calls, 0)).toBe(25);
  });

  it('cuts days at midnight in the domain time zone', async () => {
    // 23:30 UTC on 14 January is 00:30 on the 15th in Paris.
    await reportCall(s.collector.baseUrl, { callRef: 'tz-1', trackingNumber: '0800000002', startDate: new Date(Date.UTC(2026, 0, 14, 23, 30)), duration: 5 });
    const day14 = await data({ start_date: '2026-01-14', end_date: '2026-01-14' });
    const day15 = await data({ start_date: '2026-01-15', end_date: '2026-01-15' });
    expect(day14.body.total_results).toBe(2);
    expect(day15.body.results.map((r: { start_date: string }) => r.start_date)).toContain('15/01/2026 00:30:00');
  });

  it('shows visit_id, gclid and client_data only when the call has them', async () => {
    const view = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/?gclid=abc', 'client_data[0123456789]': 'order-form' }));
    const number = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const startDate = new Date();
    await reportCall(s.collector.baseUrl, { callRef: 'attributed', trackingNumber: number, startDate });
    const { from, to } = daysAroundNow();
    const [call] = (await data({ start_date: from, end_date: to, tracking_phone: number })).body.results;
    expect(call).toMatchObject({ visit_id: String(view.body.visitId), gclid: 'abc', client_data: 'order-form', source: 'paid', url: 'https://shop.test/?gclid=abc', call_path: 'https://shop.test/?gclid=abc' });
    const [plain] = (await data({ start_date: '2026-01-10', end_date: '2026-01-10' })).body.results;
    expect(plain).not.toHaveProperty('visit_id');
    expect(plain).not.toHaveProperty('gclid');
    expect(plain).not.toHaveProperty('client_data');
  });

  it('filters by the description of an offline number', async () => {
    await s.collector.get('/offline-numbers-api', { key: 'offline-test-key', action: 'assign', phone_number: '0155555555', description: 'Flyer', type: 6 });
    await reportCall(s.collector.baseUrl, { callRef: 'offline-1', trackingNumber: '0100000001', startDate: new Date(Date.UTC(2026, 0, 20, 12)) });
    const res = await data({ offline_phone_description: 'Flyer' });
    expect(res.body.total_results).toBe(1);
    expect(res.body.results[0]).toMatchObject({ phone: '0155555555', source: 'offline' });
  });

  it('pages SMS as calls, the content a string or an array', async () => {
    const send = (smsRef: string, extra: Record<string, unknown>) =>
      fetch(`${s.collector.baseUrl}/telephony/sms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TELEPHONY_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ smsRef, trackingNumber: '0800000001', callerPhone: '0611223344', sentDate: '2026-01-05 08:00:00', ...extra }),
      });
    for (let i = 0; i < 11; i++) await send(`s-${i}`, { message: `Hello ${i}` });
    await send('s-parts', { parts: ['Première partie', 'deuxième'], sentDate: '2026-01-05 09:00:00' });
    const page1 = await data({ type: 'sms' });
    expect(page1.body).toMatchObject({ status: 'OK', total_results: 12, next_page: 2 });
    expect(page1.body.results[0]).toEqual({ sent_date: '2026-01-05 09:00:00', caller_phone: '061122XXXX', tracking_phone: '0800000001', id: expect.any(Number), message_content: 'Hello 0' });
    const page2 = await data({ type: 'sms', page: 2 });
    expect(page2.body.results.at(-1).message_content).toEqual(['Première partie', 'deuxième']);
    expect((await data({ type: 'sms', caller_phone: '0699999999' })).body.total_results).toBe(0);
  });
});
