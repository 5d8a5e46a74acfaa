import { describe, expect, it } from 'vitest';
import { ospViewResponse } from '@ringtrail/shared';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';

const s = useSeededCollector('view', trackingFixture({ exclusive: ['0800000001', '0800000002', '0800000003', '0800000004', '0800000005', '0800000006'] }));

describe('/ospView in direct display', () => {
  it('starts a visit and answers a tracking number per phone, in dotted groups', async () => {
    const { status, body } = await s.collector.post('/ospView', viewParams());
    expect(status).toBe(200);
    expect(ospViewResponse.parse(body)).toEqual(body);
    expect(body.status).toBe('OK');
    expect(body.visitId).toBeGreaterThan(0);
    expect(body.viewId).toBeGreaterThan(0);
    expect(body.surtaxPhones['0123456789']).toEqual({ surtaxPhoneNumber: expect.stringMatching(/^08(\.\d\d){4}$/), surtaxPhoneCode: null });
  });

  it('draws each phone from the pool its :<typeId> suffix names, keyed by the phone as sent', async () => {
    const { body } = await s.collector.post('/ospView', viewParams({ nr_phones: 2, phones: '01 23 45 67 89:1,09.87.65.43.21:9' }));
    expect(body.surtaxPhones['01 23 45 67 89'].surtaxPhoneNumber).toMatch(/^08\./);
    expect(body.surtaxPhones['01 23 45 67 89'].surtaxPhoneCode).toBeNull();
    expect(body.surtaxPhones['09.87.65.43.21']).toEqual({ surtaxPhoneNumber: '04.00.00.00.01', surtaxPhoneCode: expect.stringMatching(/^\d{4}$/) });
  });

  it('uses the `type` parameter when phones carry no suffix', async () => {
    const { body } = await s.collector.post('/ospView', viewParams({ type: 9 }));
    expect(body.surtaxPhones['0123456789'].surtaxPhoneNumber).toBe('04.00.00.00.01');
  });

  it('echoes client_data and stores each entry with the assignment of its phone', async () => {
    const { body } = await s.collector.post('/ospView', viewParams({ 'client_data[0123456789]': 'campaign=spring' }));
    expect(body.clientData).toEqual({ '0123456789': 'campaign=spring' });
    const lease = await s.t.c.leases.findOne({ viewId: body.viewId });
    expect(lease?.clientData).toBe('campaign=spring');
  });

  it('takes a JSON body as well as a form', async () => {
    const { body } = await s.collector.post('/ospView', { ...viewParams(), client_data: { '0123456789': 'json' } }, { json: true });
    expect(body.status).toBe('OK');
    expect(body.clientData).toEqual({ '0123456789': 'json' });
  });

  it('gives the same visit the number it already holds for the same phone, and another visit a different one', async () => {
    const first = (await s.collector.post('/ospView', viewParams())).body;
    const again = (await s.collector.post('/ospView', viewParams({ visit_id: first.visitId, url: 'https://shop.test/other' }))).body;
    const stranger = (await s.collector.post('/ospView', viewParams())).body;
    expect(again.visitId).toBe(first.visitId);
    expect(again.viewId).not.toBe(first.viewId);
    expect(again.surtaxPhones['0123456789']).toEqual(first.surtaxPhones['0123456789']);
    expect(stranger.surtaxPhones['0123456789']).not.toEqual(first.surtaxPhones['0123456789']);
  });
});

describe('/ospView in click display', () => {
  it('records the view and answers only identifiers', async () => {
    const { body } = await s.collector.post('/ospView', viewParams({ direct_display: false, phones: '' }));
    expect(Object.keys(body).sort()).toEqual(['status', 'viewId', 'visitId']);
    const view = await s.t.c.views.findOne({ _id: body.viewId });
    expect(view?.directDisplay).toBe(false);
    expect(await s.t.c.leases.countDocuments({ viewId: body.viewId })).toBe(0);
  });

  it('records pages without phone numbers too', async () => {
    const click = await s.collector.post('/ospView', viewParams({ direct_display: false, nr_phones: 0, phones: undefined }));
    const direct = await s.collector.post('/ospView', viewParams({ nr_phones: 0, phones: '' }));
    expect(click.body.status).toBe('OK');
    expect(direct.body).toMatchObject({ status: 'OK', surtaxPhones: {} });
    expect(await s.t.c.views.countDocuments({ _id: { $in: [click.body.viewId, direct.body.viewId] } })).toBe(2);
  });
});

describe('visits', () => {
  it('starts a new visit, whose id is returned, for an unknown visit_id', async () => {
    const { body } = await s.collector.post('/ospView', viewParams({ visit_id: 987654 }));
    expect(body.visitId).not.toBe(987654);
    expect(await s.t.c.visits.findOne({ _id: body.visitId })).not.toBeNull();
  });

  it('starts a new visit when the previous one was idle for more than 30 minutes', async () => {
    const first = (await s.collector.post('/ospView', viewParams({ direct_display: false }))).body;
    await s.t.c.visits.updateOne({ _id: first.visitId }, { $set: { lastSeenAt: new Date(Date.now() - 31 * 60_000) } });
    const later = (await s.collector.post('/ospView', viewParams({ visit_id: first.visitId, direct_display: false }))).body;
    expect(later.visitId).not.toBe(first.visitId);
    const recent = (await s.collector.post('/ospView', viewParams({ visit_id: later.visitId, direct_display: false }))).body;
    expect(recent.visitId).toBe(later.visitId);
  });

  it('gives the same viewId and stores no second view for a repeated unique_view_id', async () => {
    const params = viewParams({ unique_view_id: 'page-load-42', unique_visitor_id: 'visitor-7' });
    const first = (await s.collector.post('/ospView', params)).body;
    const again = (await s.collector.post('/ospView', { ...params, visit_id: first.visitId })).body;
    expect(again.viewId).toBe(first.viewId);
    expect(again.visitId).toBe(first.visitId);
    expect(again.surtaxPhones).toEqual(first.surtaxPhones);
    expect(await s.t.c.views.countDocuments({ uniqueViewId: 'page-load-42' })).toBe(1);
    expect((await s.t.c.visits.findOne({ _id: first.visitId }))?.uniqueVisitorId).toBe('visitor-7');
  });

  it('stores ip, url, title, referrer, mobile flag, user agent and the source with its keyword', async () => {
    const { body } = await s.collector.post(
      '/ospView',
      viewParams({
        ip: '198.51.100.23',
        url: 'https://shop.test/plumber?utm_source=newsletter',
        page_title: 'Plumber',
        is_mobile: true,
        referer_url: 'https://www.google.fr/search?q=emergency+plumber',
        user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
        direct_display: false,
      }),
    );
    const view = await s.t.c.views.findOne({ _id: body.viewId });
    expect(view).toMatchObject({
      ip: '198.51.100.23',
      url: 'https://shop.test/plumber?utm_source=newsletter',
      pageTitle: 'Plumber',
      referrer: 'https://www.google.fr/search?q=emergency+plumber',
      isMobile: true,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
      isBot: false,
      attribution: { source: 'organic', keyword: 'emergency plumber', utm: { utm_source: 'newsletter' } },
    });
    const visit = await s.t.c.visits.findOne({ _id: body.visitId });
    expect(visit?.attribution.source).toBe('organic');
  });
});

describe('robots', () => {
  it('get no number, a well-formed answer, and a view marked as a bot', async () => {
    const { status, body } = await s.collector.post('/ospView', viewParams({ user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }));
    expect(status).toBe(200);
    expect(ospViewResponse.parse(body)).toMatchObject({ status: 'OK', surtaxPhones: {} });
    expect((await s.t.c.views.findOne({ _id: body.viewId }))?.isBot).toBe(true);
    expect(await s.t.c.leases.countDocuments({ viewId: body.viewId })).toBe(0);
  });
});
