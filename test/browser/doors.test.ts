// The browser doors over HTTP: the public key, CORS, what a public caller may and may not do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, useSeededCollector, type RunningCollector } from '../helpers/collector.ts';
import { API_KEY, trackingFixture } from '../helpers/fixtures.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';
import { inOneWindow } from '../helpers/windows.ts';

const s = useSeededCollector('browser_doors', trackingFixture({ exclusive: Array.from({ length: 30 }, (_, i) => `08000000${i + 10}`) }));
const ORIGIN = 'http://shop.test';

interface Sent {
  status: number;
  body: any;
  headers: Headers;
}

async function send(path: string, fields: Record<string, string | number>, headers: Record<string, string> = {}, base = s.collector.baseUrl): Promise<Sent> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { origin: ORIGIN, 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8', ...headers },
    body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString(),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const view = (fields: Record<string, string | number> = {}, headers: Record<string, string> = {}) =>
  send('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/contact`, page_title: 'Contact', referer_url: '', phones: '0123456789', ...fields }, headers);

describe('/t/view', () => {
  it("answers /ospView's fields plus what the tracker needs, with CORS for the domain's origin", async () => {
    const { status, body, headers } = await view();
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'OK',
      visitId: expect.any(Number),
      viewId: expect.any(Number),
      surtaxPhones: { '0123456789': { surtaxPhoneNumber: expect.stringMatching(/^08\.00\.00\.00\.\d\d$/), surtaxPhoneCode: null } },
      clientData: null,
      display: 'direct',
      sitePhones: ['0123456789', '0987654321'],
      expiration: 1800,
      antiFlicker: 1000,
      // Ours (issue 79): the visit's key, also in the X-Visit-Key header; tracker.js reads it here.
      visitKey: headers.get('x-visit-key'),
    });
    expect(body.visitKey).toMatch(/^[\w-]{22}$/);
    expect(headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(headers.get('vary')).toMatch(/Origin/);
  });

  it("takes GA4's client and session ids out of its cookies as the tracker sends them, and ignores cookies of another shape", async () => {
    const visitGa = async (fields: Record<string, string>) => {
      const { body } = await view({ phones: '', ...fields });
      expect(body.status).toBe('OK');
      return (await s.t.c.visits.findOne({ _id: body.visitId }))!.ga;
    };
    // GA4's current cookie format (GS2) and the former one (GS1).
    expect(await visitGa({ _ga: 'GA1.1.1234567890.1712345678', _ga_K4Q7ZP2M1X: 'GS2.1.s1712349999$o3$g1$t1712350100$j0$l0$h0' })).toEqual({ clientId: '1234567890.1712345678', sessionId: '1712349999' });
    expect(await visitGa({ _ga: 'GA1.2.987654321.1700000000', _ga_ABC: 'GS1.1.1700000500.5.1.1700000600.0.0.0' })).toEqual({ clientId: '987654321.1700000000', sessionId: '1700000500' });
    expect(await visitGa({ _ga: 'GA1.1.1234567890.1712345678' })).toEqual({ clientId: '1234567890.1712345678', sessionId: null });
    // A cookie of another shape is no reason to refuse a page's view: it is left out.
    expect(await visitGa({ _ga: 'garbage', _ga_X: 'GS2.1.s1$o1' })).toBeUndefined();
  });

  it("maps only the site's own numbers, each once, whatever the page sends", async () => {
    const { body } = await view({ phones: '0555555555,0123456789,0123456789,0612345678' });
    expect(Object.keys(body.surtaxPhones)).toEqual(['0123456789']);
    expect(await s.t.c.views.findOne({ _id: body.viewId })).toMatchObject({ phones: ['0123456789'], nrPhones: 1 });
  });

  it('takes the ip from the connection and the user agent from the header, never from the body', async () => {
    const { body } = await view({ ip: '198.51.100.1', user_agent: 'Forged/1.0' }, { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1', 'x-forwarded-for': '198.51.100.2' });
    expect(await s.t.c.views.findOne({ _id: body.viewId })).toMatchObject({ ip: '127.0.0.1', userAgent: expect.stringContaining('iPhone'), isMobile: true });
  });

  it('takes the ip from X-Forwarded-For only behind a trusted proxy', async () => {
    const proxied = await startCollector(s.t.db, { proxyHops: 1 });
    try {
      const { body } = await send('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/`, page_title: 'Home', referer_url: '', phones: '' }, { 'x-forwarded-for': '198.51.100.2' }, proxied.baseUrl);
      expect(await s.t.c.views.findOne({ _id: body.viewId })).toMatchObject({ ip: '198.51.100.2' });
    } finally {
      await proxied.close();
    }
  });

  it('always gives the domain default expiration: a page cannot hold a number longer', async () => {
    const { body } = await view({ expiration: 999_999 });
    const lease = (await s.t.c.leases.findOne({ viewId: body.viewId }))!;
    expect(lease.expiresAt.getTime() - lease.assignedAt.getTime()).toBe(1800 * 1000);
  });

  it("uses the domain's display mode unless the page names one", async () => {
    expect((await view({ display: 'click' })).body).toMatchObject({ status: 'OK', display: 'click' });
    expect((await view({ display: 'click' })).body.surtaxPhones).toBeUndefined();
    expect((await view({ display: '' })).body.display).toBe('direct');
    expect((await view({ display: 'sideways' })).body).toMatchObject({ status: 'INVALID_PARAMETER', errorMessage: expect.stringContaining('display') });
  });

  it('gives robots no number', async () => {
    const { body } = await view({}, { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' });
    expect(body).toMatchObject({ status: 'OK', surtaxPhones: {} });
    expect(await s.t.c.views.findOne({ _id: body.viewId })).toMatchObject({ isBot: true });
  });
});

describe('authentication and origins', () => {
  it('refuses an unknown public key, and the secret api_key in its place', async () => {
    for (const key of ['pk-unknown', API_KEY, '']) {
      const { body, headers } = await view({ key });
      expect(body).toMatchObject({ status: 'AUTHENTICATION_ERROR' });
      expect(headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('refuses, with 403 and before storing anything, a page of another origin or a request with no origin', async () => {
    const views = await s.t.c.views.countDocuments();
    for (const origin of ['http://evil.test', 'http://shop.test:8080', 'https://shop.test.evil.test']) {
      const { status, body, headers } = await view({}, { origin });
      expect(status).toBe(403);
      expect(body).toEqual({ status: 'AUTHENTICATION_ERROR', errorMessage: `Origin ${origin} is not allowed for this key` });
      expect(headers.get('access-control-allow-origin')).toBeNull();
    }
    const res = await fetch(`${s.collector.baseUrl}/t/view`, { method: 'POST', body: 'key=pk-test-key&visit_id=0' });
    expect(res.status).toBe(403);
    expect(await s.t.c.views.countDocuments()).toBe(views);
  });

  it('reports the first missing parameter in the tracking envelope', async () => {
    const { body } = await send('/t/view', { key: 'pk-test-key', visit_id: 0 });
    expect(body).toEqual({ status: 'MISSING_PARAMETER', errorMessage: 'Missing parameter url' });
  });
});

describe('/t/click', () => {
  it("assigns a site phone's number to the view's visit, and refuses any other phone", async () => {
    const v = (await view({ display: 'click' })).body;
    const ok = await send('/t/click', { key: 'pk-test-key', visit_id: v.visitId, view_id: v.viewId, phone: '0987654321' });
    expect(ok.body).toMatchObject({ status: 'OK', visitId: v.visitId, viewId: v.viewId, surtaxPhone: { surtaxPhoneNumber: expect.stringMatching(/^08\./) } });
    expect(await s.t.c.clicks.findOne({ viewId: v.viewId })).toMatchObject({ kind: 'click', phone: '0987654321' });
    const refused = await send('/t/click', { key: 'pk-test-key', visit_id: v.visitId, view_id: v.viewId, phone: '0612345678' });
    expect(refused.body).toEqual({ status: 'INVALID_PARAMETER', errorMessage: "Invalid parameter phone: not one of the site's phone numbers" });
  });

  it('needs a view of this domain', async () => {
    expect((await send('/t/click', { key: 'pk-test-key', visit_id: 1, phone: '0123456789' })).body).toMatchObject({ status: 'MISSING_PARAMETER', errorMessage: 'Missing parameter view_id' });
    expect((await send('/t/click', { key: 'pk-test-key', visit_id: 1, view_id: 987654, phone: '0123456789' })).body).toMatchObject({ status: 'INVALID_PARAMETER' });
  });
});

describe('/t/expiration', () => {
  it('extends a number for the visit that holds it, by the domain default', async () => {
    const v = (await view()).body;
    const number = v.surtaxPhones['0123456789'].surtaxPhoneNumber;
    const { body } = await send('/t/expiration', { key: 'pk-test-key', visit_id: v.visitId, view_id: v.viewId, surtax_phone: number, expiration: 999_999 });
    expect(body).toMatchObject({ status: 'OK', surtaxPhone: number });
    const expiresAt = new Date(`${body.expiresAt.replace(' ', 'T')}Z`).getTime();
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(1800 * 1000);
  });

  it("never extends another visit's number", async () => {
    const holder = (await view()).body;
    const other = (await view()).body;
    const number = holder.surtaxPhones['0123456789'].surtaxPhoneNumber;
    const before = (await s.t.c.leases.findOne({ viewId: holder.viewId }))!.expiresAt;
    const { body } = await send('/t/expiration', { key: 'pk-test-key', visit_id: other.visitId, view_id: other.viewId, surtax_phone: number });
    expect(body).toEqual({ status: 'WARNING', errorMessage: 'Tracking number held by another visit: nothing was updated' });
    expect((await s.t.c.leases.findOne({ viewId: holder.viewId }))!.expiresAt).toEqual(before);
  });
});

describe('rate limits', () => {
  // A database of its own: the counts are kept in the database, and the other tests' requests
  // came from this address too.
  let limited: RunningCollector;
  let own: Awaited<ReturnType<typeof testDatabase>>;
  beforeAll(async () => {
    own = await testDatabase('browser_limits');
    await seed(own.c, trackingFixture());
    limited = await startCollector(own.db, { browserLimits: { perIp: 6, perVisit: 3 } });
  });
  afterAll(async () => {
    await limited.close();
    await own.close();
  });

  it('per visit, then per ip: HTTP 429 with Retry-After, a WARNING in the envelope, and no number', async () => {
    await inOneWindow(60); // all the test's requests in one window of the limit
    const first = (await send('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/`, page_title: 'Home', referer_url: '', phones: '0123456789' }, {}, limited.baseUrl)).body;
    const again = () => send('/t/view', { key: 'pk-test-key', visit_id: first.visitId, url: `${ORIGIN}/`, page_title: 'Home', referer_url: '', phones: '0123456789' }, {}, limited.baseUrl);
    const answers = await Promise.all([again(), again(), again(), again()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body).toEqual({ status: 'WARNING', errorMessage: expect.stringMatching(/^Too many requests from this visit: retry in \d+ s$/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // 5 requests so far from this ip; a new visit passes once more, then the ip is over its limit.
    const fresh = () => send('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/`, page_title: 'Home', referer_url: '', phones: '' }, {}, limited.baseUrl);
    expect((await fresh()).status).toBe(200);
    const overIp = await fresh();
    expect(overIp.status).toBe(429);
    expect(overIp.body.errorMessage).toMatch(/^Too many requests from this address/);
  });
});

describe('many pages at once on a small pool', () => {
  it('gives each number to one visitor and WARNING to the rest', async () => {
    const small = await testDatabase('browser_crowd');
    await seed(small.c, trackingFixture({ exclusive: ['0800000001', '0800000002', '0800000003'] }));
    const collector = await startCollector(small.db);
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => send('/t/view', { key: 'pk-test-key', visit_id: 0, url: `${ORIGIN}/`, page_title: 'Home', referer_url: '', phones: '0123456789' }, {}, collector.baseUrl)),
      );
      const ok = answers.filter((a) => a.body.status === 'OK');
      expect(ok).toHaveLength(3);
      expect(new Set(ok.map((a) => a.body.surtaxPhones['0123456789'].surtaxPhoneNumber)).size).toBe(3);
      expect(answers.filter((a) => a.body.status === 'WARNING')).toHaveLength(9);
    } finally {
      await collector.close();
      await small.close();
    }
  });
});
