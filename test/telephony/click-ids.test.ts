// Click ids of the other ad platforms (issue 23, part 4): msclkid (Microsoft Advertising, a paid
// source) and fbclid (Meta, social unless a paid utm_medium says otherwise) are kept like gclid, on
// the visit, the call and the sale; the data API shows them only when known; Microsoft's offline
// conversions file carries leads and sales with an msclkid.
import { describe, expect, it } from 'vitest';
import { attribute } from '../../collector/src/tracking/attribution.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { daysAroundNow } from '../helpers/days.ts';
import { commerceFixture, CUSTOMER_KEY, DATA_KEY, viewParams } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const USER = { username: 'owner@shop.test', password: 'click-ids-password' };
const s = useSeededCollector('click_ids', commerceFixture({ ga4: false, tracking: { users: [USER], exclusive: ['0800000001', '0800000002', '0800000003', '0800000004'] } }), { telephonyApiKey: TELEPHONY_KEY });

describe('the source of a visit with a click id', () => {
  it('is paid for msclkid, social for fbclid, paid for fbclid with a paid utm_medium', () => {
    expect(attribute('https://shop.test/?msclkid=MS1', '')).toMatchObject({ source: 'paid', msclkid: 'MS1', fbclid: null, gclid: null });
    expect(attribute('https://shop.test/?fbclid=FB1', '')).toMatchObject({ source: 'social', fbclid: 'FB1', msclkid: null });
    expect(attribute('https://shop.test/?fbclid=FB2&utm_source=facebook&utm_medium=cpc&utm_term=boiler', '')).toMatchObject({ source: 'paid', sourceName: 'facebook', keyword: 'boiler', fbclid: 'FB2' });
  });
});

describe('msclkid and fbclid end to end', () => {
  it('reach the call, the data API (only when known), the calls log and Microsoft Advertising’s file with the lead and the sale', async () => {
    const callFrom = async (url: string, callRef: string, callerPhone: string) => {
      const view = await s.collector.post('/ospView', viewParams({ url }));
      const trackingNumber = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
      const { body } = await reportCall(s.collector.baseUrl, { callRef, trackingNumber, startDate: new Date(), callerPhone, duration: 120 });
      return { callId: body.callId as number, visitId: view.body.visitId as number, trackingNumber };
    };
    const bing = await callFrom('https://shop.test/?msclkid=MSCLICK42', 'click-ms', '0690000001');
    const meta = await callFrom('https://shop.test/?fbclid=FBCLICK42', 'click-fb', '0690000002');
    const plain = await callFrom('https://shop.test/', 'click-none', '0690000003');
    await s.collector.post('/api/customer-order', { key: CUSTOMER_KEY, id: 'ms-order', status: 'paid', visit_id: bing.visitId, products: JSON.stringify([{ id: 'SKU', quantity: 2, cost_per_unit: 45 }]) });

    const { from, to } = daysAroundNow();
    const records = (await s.collector.get('/data-api', { api_key: DATA_KEY, type: 'calls', start_date: from, end_date: to, page: 1, limit: 100 })).body.results;
    const recordOf = (number: string) => records.find((r: { tracking_number: string }) => r.tracking_number === number);
    expect(recordOf(bing.trackingNumber)).toMatchObject({ source: 'paid', msclkid: 'MSCLICK42' });
    expect(recordOf(meta.trackingNumber)).toMatchObject({ source: 'social', fbclid: 'FBCLICK42' });
    for (const field of ['msclkid', 'fbclid', 'gclid']) expect(recordOf(plain.trackingNumber)).not.toHaveProperty(field);
    expect(recordOf(bing.trackingNumber)).not.toHaveProperty('fbclid');

    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const log = (await owner.get(`/domains/shop.test/reports/calls?from=${from}&to=${to}`)).body.calls;
    expect(log.find((c: { callId: number }) => c.callId === bing.callId)).toMatchObject({ msclkid: 'MSCLICK42', fbclid: null });
    expect(log.find((c: { callId: number }) => c.callId === meta.callId)).toMatchObject({ fbclid: 'FBCLICK42', msclkid: null });

    const file = (await owner.get(`/domains/shop.test/reports/microsoft-ads.csv?from=${from}&to=${to}`)).text.split('\r\n');
    expect(file[0]).toBe('Type,Status,Id,Parent Id,Client Id,Name,Conversion Currency Code,Conversion Name,Conversion Time,Conversion Value,Microsoft Click Id');
    expect(file[1]).toBe('Format Version,,,,,6.0,,,,,');
    const rows = file.slice(2).filter(Boolean);
    expect(rows).toEqual([
      expect.stringMatching(/^Offline Conversion,,,,,,EUR,RingTrail lead,\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d\d:\d\d [AP]M,0,MSCLICK42$/),
      expect.stringMatching(/^Offline Conversion,,,,,,EUR,RingTrail sale,\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d\d:\d\d [AP]M,90,MSCLICK42$/),
    ]);
    expect((await owner.get(`/domains/shop.test/reports/google-ads.csv?from=${from}&to=${to}`)).text).not.toContain('MSCLICK42');
  });

  it('gives one row per conversion in the Ads files: two leads from one click in the same second are one', async () => {
    const view = await s.collector.post('/ospView', viewParams({ url: 'https://shop.test/?gclid=GCLICK-TWICE' }));
    const trackingNumber = view.body.surtaxPhones['0123456789'].surtaxPhoneNumber.replaceAll('.', '');
    const second = new Date(Math.floor(Date.now() / 1000) * 1000);
    for (const [callRef, callerPhone, at] of [['twice-1', '0690000011', second], ['twice-2', '0690000012', new Date(second.getTime() + 400)], ['twice-3', '0690000013', new Date(second.getTime() + 2000)]] as const) {
      expect((await reportCall(s.collector.baseUrl, { callRef, trackingNumber, startDate: at, callerPhone, duration: 120 })).status).toBe(200);
    }
    const { from, to } = daysAroundNow();
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const rows = (await owner.get(`/domains/shop.test/reports/google-ads.csv?from=${from}&to=${to}`)).text.split(/\r?\n/).filter((line) => line.startsWith('GCLICK-TWICE,'));
    // The first two in one second: one conversion; the third, two seconds later: another.
    expect(rows).toHaveLength(2);
    expect(new Set(rows).size).toBe(2);
  });
});
