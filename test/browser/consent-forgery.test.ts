// Ad consent no stranger can forge (issue 70), written as the attack was: `POST /t/consent` with the
// public key and a guessed visit id, from another address and no cookie, marking a visitor's `denied`
// visit `granted` (so that their lead, hashed e-mail and click id went to the ad platforms), and every
// visit `denied` (so that a site's conversions stop). A change is taken only with the visit's consent
// key, which the visitor's own page was given in tracker-ads.js's address.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { browserPost } from '../helpers/site-page.ts';

const s = useSeededCollector('browser_consent_forgery', trackingFixture({ exclusive: Array.from({ length: 10 }, (_, i) => `08000000${i + 10}`) }));
const ORIGIN = 'http://shop.test';

async function send(path: string, fields: Record<string, string | number>, ip: string) {
  const res = await browserPost(s.collector.baseUrl, path, fields, ORIGIN, ip);
  return { status: res.status, body: await res.json() };
}

/** A visitor's page: its visit, and the consent key in the ads script's address. */
async function visitorPage(ip: string): Promise<{ visitId: number; consentKey: string }> {
  const { body } = await send('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact`, page_title: 'Contact', referer_url: '', phones: '0123456789' }, ip);
  const script = new URL((body.scripts as string[]).find((src) => src.startsWith('/tracker-ads.js'))!, ORIGIN);
  expect(Number(script.searchParams.get('visit'))).toBe(body.visitId);
  return { visitId: body.visitId, consentKey: script.searchParams.get('consent')! };
}

const consent = (fields: Record<string, string | number>, ip: string) => send('/t/consent', { key: 'pk-test-key', ...fields }, ip);
const deniedOf = async (visitId: number) => (await s.t.c.visits.findOne({ _id: visitId }))?.adsDenied;

describe('ads consent', () => {
  beforeAll(async () => {
    // The domain is connected to an ad platform: its pages load tracker-ads.js.
    await s.t.c.adsConnections.insertOne({ _id: 'shop.test|google', domainId: 'shop.test', accountId: 'Test account', platform: 'google', settings: {}, secret: 'sealed', credentials: 'service account', connectedAt: new Date(), by: 'owner@shop.test', broken: null });
  });

  it("is changed by the visitor who holds the visit, with its page's key", async () => {
    const visitor = await visitorPage('198.51.100.10');
    expect(visitor.consentKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await consent({ visit_id: visitor.visitId, ads_consent: 'denied', consent_key: visitor.consentKey }, '198.51.100.10')).body).toEqual({ status: 'OK' });
    expect(await deniedOf(visitor.visitId)).toBe(true);
    // Its next page is given the same key; the visitor changes its mind.
    expect((await visitorPage('198.51.100.10')).consentKey).not.toBe('');
    expect((await consent({ visit_id: visitor.visitId, ads_consent: 'granted', consent_key: visitor.consentKey }, '198.51.100.10')).body).toEqual({ status: 'OK' });
    expect(await deniedOf(visitor.visitId)).toBe(false);
  });

  it("refuses a stranger's change on a bare or guessed visit id: a denied visit stays denied", async () => {
    const visitor = await visitorPage('198.51.100.20');
    await consent({ visit_id: visitor.visitId, ads_consent: 'denied', consent_key: visitor.consentKey }, '198.51.100.20');
    const stranger = await visitorPage('203.0.113.66');
    // From another address, no cookie: the id alone, a made-up key, the stranger's own visit's key.
    const attempts: Record<string, string | number>[] = [
      { visit_id: visitor.visitId, ads_consent: 'granted' },
      { visit_id: visitor.visitId, ads_consent: 'granted', consent_key: 'A'.repeat(22) },
      { visit_id: visitor.visitId, ads_consent: 'granted', consent_key: stranger.consentKey },
      { visit_id: visitor.visitId, ads_consent: 'granted', consent_key: '' },
    ];
    for (const attempt of attempts) {
      // Refused in the browser doors' envelope (HTTP 200, as the spec's family answers).
      const answer = await consent(attempt, '203.0.113.66');
      expect(answer.body.status, JSON.stringify(attempt)).toMatch(/^(MISSING|INVALID)_PARAMETER$/);
    }
    expect((await consent(attempts[1]!, '203.0.113.66')).body).toMatchObject({ status: 'INVALID_PARAMETER', errorMessage: 'Invalid parameter consent_key: not the key of this visit' });
    expect((await consent(attempts[0]!, '203.0.113.66')).body).toMatchObject({ status: 'MISSING_PARAMETER', errorMessage: expect.stringMatching(/consent_key/) });
    expect(await deniedOf(visitor.visitId)).toBe(true);
  });

  it("refuses marking every visit denied: the site's other visits keep their consent", async () => {
    const visitor = await visitorPage('198.51.100.30');
    for (let visitId = 1; visitId <= visitor.visitId; visitId++) {
      expect((await consent({ visit_id: visitId, ads_consent: 'denied' }, '203.0.113.67')).body.status).toBe('MISSING_PARAMETER');
    }
    expect(await deniedOf(visitor.visitId)).toBeUndefined();
    expect(await s.t.c.visits.countDocuments({ adsDenied: true })).toBe(1); // the one its own visitor denied above
  });
});
