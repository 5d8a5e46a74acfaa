import { describe, expect, it } from 'vitest';
import { ospClickResponse } from '@ringtrail/shared';
import { useSeededCollector } from '../helpers/collector.ts';
import { API_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';

const s = useSeededCollector('click', trackingFixture({ exclusive: ['0800000001', '0800000002', '0800000003', '0800000004'] }));

describe('/ospClick', () => {
  it('reveals a number for a click display view and links the click to it', async () => {
    const view = (await s.collector.post('/ospView', viewParams({ direct_display: false }))).body;
    const { status, body } = await s.collector.post('/ospClick', { api_key: API_KEY, phone: '01 23 45 67 89', view_id: view.viewId, 'client_data[01 23 45 67 89]': 'button=header' });
    expect(status).toBe(200);
    expect(ospClickResponse.parse(body)).toMatchObject({ status: 'OK', visitId: view.visitId, viewId: view.viewId, clientData: { '01 23 45 67 89': 'button=header' } });
    expect(body.surtaxPhone).toEqual({ surtaxPhoneNumber: expect.stringMatching(/^08\./), surtaxPhoneCode: null });
    const click = await s.t.c.clicks.findOne({ viewId: view.viewId });
    expect(click).toMatchObject({ visitId: view.visitId, phone: '0123456789', isBot: false });
    const lease = await s.t.c.leases.findOne({ _id: click!.leaseId! });
    expect(lease).toMatchObject({ viewId: view.viewId, visitId: view.visitId, clientData: 'button=header' });
  });

  it('a second click of the same visit on the same phone shows the same number', async () => {
    const view = (await s.collector.post('/ospView', viewParams({ direct_display: false }))).body;
    const a = (await s.collector.post('/ospClick', { api_key: API_KEY, phone: '0123456789', view_id: view.viewId })).body;
    const b = (await s.collector.post('/ospClick', { api_key: API_KEY, phone: '0123456789', view_id: view.viewId })).body;
    expect(b.surtaxPhone).toEqual(a.surtaxPhone);
  });

  it('works without view_id: only the click is recorded, visitId and viewId are 0', async () => {
    const { body } = await s.collector.post('/ospClick', { api_key: API_KEY, phone: '0987654321', type: 9 });
    expect(body).toMatchObject({ status: 'OK', visitId: 0, viewId: 0, surtaxPhone: { surtaxPhoneNumber: '04.00.00.00.01', surtaxPhoneCode: expect.stringMatching(/^\d{4}$/) }, clientData: null });
    expect(await s.t.c.clicks.countDocuments({ phone: '0987654321', viewId: null })).toBe(1);
  });

  it('refuses an unknown view_id', async () => {
    const { body } = await s.collector.post('/ospClick', { api_key: API_KEY, phone: '0123456789', view_id: 999999 });
    expect(body).toMatchObject({ status: 'INVALID_PARAMETER', errorMessage: expect.stringContaining('view_id') });
  });

  it('gives robots no number but records their click', async () => {
    const { body } = await s.collector.post('/ospClick', { api_key: API_KEY, phone: '0123456789', user_agent: 'curl/8.5.0' });
    expect(body).toMatchObject({ status: 'WARNING', errorMessage: expect.stringContaining('robots') });
    expect(await s.t.c.clicks.countDocuments({ isBot: true })).toBe(1);
  });

  it('with expiration=0 assigns a number that is back in the pool at once', async () => {
    const { body } = await s.collector.post('/ospClick', { api_key: API_KEY, phone: '0123456789', expiration: 0 });
    expect(body.status).toBe('OK');
    const again = await s.collector.post('/ospExpiration', { api_key: API_KEY, surtax_phone: body.surtaxPhone.surtaxPhoneNumber, expiration: 60 });
    expect(again.body.status).toBe('WARNING');
  });
});
