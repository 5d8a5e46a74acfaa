// A visit is continued only by the browser that holds it (issue 79), written as the attack was:
// `/t/view` with another visitor's `visit_id`, from another address and no cookie, continued that
// visit and answered its consent key, so a stranger granted a denied visitor's consent and their
// views landed in the victim's visit. A visit goes on only with the key /t/view gave the browser
// with it (the tracker's `tracker_visit_key` cookie); a bare id, or another visit's key, starts a
// new visit. /ospView (the spec's server-side door) still continues a visit by its id.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { browserPost } from '../helpers/site-page.ts';

const s = useSeededCollector('browser_visit_continuation', trackingFixture({ exclusive: Array.from({ length: 10 }, (_, i) => `08000000${i + 10}`) }));
const ORIGIN = 'http://shop.test';

async function send(path: string, fields: Record<string, string | number>, ip: string) {
  const res = await browserPost(s.collector.baseUrl, path, fields, ORIGIN, ip);
  return { status: res.status, body: { ...(await res.json()), visitKey: res.headers.get('x-visit-key') ?? undefined } };
}

const view = (ip: string, fields: Record<string, string | number> = {}) => send('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact`, page_title: 'Contact', referer_url: '', phones: '0123456789', ...fields }, ip);
const consentKeyOf = (body: { scripts?: string[] }) => new URL(body.scripts!.find((src) => src.startsWith('/tracker-ads.js'))!, ORIGIN).searchParams.get('consent');

describe('continuing a visit through the browser doors', () => {
  beforeAll(async () => {
    await s.t.c.adsConnections.insertOne({ _id: 'shop.test|google', domainId: 'shop.test', accountId: 'Test account', platform: 'google', settings: {}, secret: 'sealed', credentials: 'service account', connectedAt: new Date(), by: 'owner@shop.test', broken: null });
  });

  it('takes the visit’s own key, given with the visit', async () => {
    const first = (await view('198.51.100.10')).body;
    expect(first.visitKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const next = (await view('198.51.100.10', { visit_id: first.visitId, visit_key: first.visitKey, url: `${ORIGIN}/prices` })).body;
    expect(next).toMatchObject({ status: 'OK', visitId: first.visitId, visitKey: first.visitKey });
    expect(await s.t.c.views.countDocuments({ visitId: first.visitId })).toBe(2);
  });

  it("starts a new visit for a stranger who sends a victim's visit id, bare or with another key, and never answers the victim's consent key", async () => {
    const victim = (await view('198.51.100.20')).body;
    const denied = await send('/t/consent', { key: 'pk-test-key', visit_id: victim.visitId, ads_consent: 'denied', consent_key: consentKeyOf(victim)! }, '198.51.100.20');
    expect(denied.body.status).toBe('OK');
    const strangersOwn = (await view('203.0.113.7')).body;

    const forgeries: Record<string, string | number>[] = [{ visit_id: victim.visitId }, { visit_id: victim.visitId, visit_key: strangersOwn.visitKey }, { visit_id: victim.visitId, visit_key: 'A'.repeat(22) }, { visit_id: victim.visitId, visit_key: '' }];
    for (const forged of forgeries) {
      const answer = (await view('203.0.113.7', { ...forged, url: `${ORIGIN}/stranger` })).body;
      expect(answer.status).toBe('OK');
      expect(answer.visitId).not.toBe(victim.visitId);
      expect(consentKeyOf(answer)).not.toBe(consentKeyOf(victim));
      // The consent key the stranger was given cannot change the victim's visit.
      const granted = await send('/t/consent', { key: 'pk-test-key', visit_id: victim.visitId, ads_consent: 'granted', consent_key: consentKeyOf(answer)! }, '203.0.113.7');
      expect(granted.body.status).toBe('INVALID_PARAMETER');
    }
    expect((await s.t.c.visits.findOne({ _id: victim.visitId }))!.adsDenied).toBe(true);
    // None of the stranger's views landed in the victim's visit.
    expect(await s.t.c.views.countDocuments({ visitId: victim.visitId })).toBe(1);
  });

  it('leaves /ospView, the server-side door, continuing a visit by its id as the spec says', async () => {
    const first = await s.collector.post('/ospView', viewParams({ ip: '198.51.100.30' }));
    const next = await s.collector.post('/ospView', viewParams({ ip: '198.51.100.30', visit_id: first.body.visitId, url: 'https://shop.test/prices' }));
    expect(next.body).toMatchObject({ status: 'OK', visitId: first.body.visitId });
  });
});
