// tracker.js when things go wrong: the page keeps its own numbers and nothing reaches its console.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { openPage, settle } from '../helpers/site-page.ts';

const s = useSeededCollector('tracker_failures', trackingFixture({ exclusive: ['0800000001'], antiFlickerMs: 150 }));
const PAGE = '<p id="text">Call 01 23 45 67 89</p><a id="link" href="tel:0987654321">Call us</a>';

/** A collector that takes requests and never answers them. */
let silent: { url: string; requests: number; server: http.Server };
beforeAll(async () => {
  const server = http.createServer(() => {
    silent.requests++;
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  silent = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: 0, server };
});
afterAll(() => {
  silent.server.closeAllConnections();
  silent.server.close();
});

/** A port where nothing listens. */
async function deadPort(): Promise<string> {
  const server = http.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise((r) => server.close(r));
  return url;
}

describe('tracker.js when the collector fails', () => {
  it('keeps the original numbers when the collector is down', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, attributes: { collector: await deadPort() }, body: PAGE });
    await page.ready();
    expect(page.text('#text')).toBe('Call 01 23 45 67 89');
    expect(page.document.querySelector('#link')!.getAttribute('href')).toBe('tel:0987654321');
    expect(page.document.cookie).toBe('');
    expect(page.errors).toEqual([]);
    page.close();
  });

  it('gives up on a silent collector after about 2 s, shows the hidden numbers sooner, and sends nothing more', async () => {
    const before = silent.requests;
    const started = Date.now();
    const page = await openPage({ collector: s.collector.baseUrl, attributes: { collector: silent.url, hide: '500' }, body: PAGE });
    let gaveUp = false;
    const ready = page.ready().then(() => (gaveUp = true));
    await expect.poll(() => silent.requests).toBe(before + 1);
    expect(page.document.querySelector<HTMLElement>('#text')!.style.visibility).toBe('hidden'); // anti-flicker
    // Shown again at 500 ms, while the request still waits for its 2 s: before the tracker gives up.
    await expect.poll(() => page.document.querySelector<HTMLElement>('#text')!.style.visibility).toBe('');
    expect(gaveUp).toBe(false);
    await ready;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(page.text('#text')).toBe('Call 01 23 45 67 89');
    // Numbers appearing later, clicks: no retry storm.
    page.document.body.insertAdjacentHTML('beforeend', '<p>Also 01 23 45 67 89</p>');
    await settle(600);
    expect(silent.requests).toBe(before + 1);
    expect(page.errors).toEqual([]);
    page.close();
  });

  it("hides numbers no longer than the domain's anti-flicker timeout, remembered from the site's previous page", async () => {
    const timers: number[] = [];
    const previous = await openPage({ collector: s.collector.baseUrl, body: '<p>Home</p>' });
    await previous.ready();
    expect(previous.window.localStorage.getItem('ringtrail_hide')).toBe('150');
    previous.close();
    const page = await openPage({
      collector: s.collector.baseUrl,
      attributes: { collector: silent.url },
      body: PAGE,
      beforeParse: (window) => {
        window.localStorage.setItem('ringtrail_hide', '150'); // jsdom keeps no storage across windows
        // The page's timers, as asked for: how long the numbers stay hidden is the delay the
        // tracker asks of the browser, whatever a busy machine does to when it fires.
        const setTimeout = window.setTimeout.bind(window);
        window.setTimeout = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => (timers.push(ms ?? 0), setTimeout(handler, ms, ...args))) as typeof window.setTimeout;
      },
    });
    const ready = page.ready();
    await expect.poll(() => page.document.querySelector<HTMLElement>('#text')!.style.visibility).toBe('hidden');
    await expect.poll(() => page.document.querySelector<HTMLElement>('#text')!.style.visibility).toBe('');
    expect(timers).toContain(150);
    expect(timers).not.toContain(1000); // not the default
    await ready;
    page.close();
  });

  it('keeps the original numbers on a WARNING, and the visit cookie the WARNING carries', async () => {
    const onePhone = '<p id="text">Call 01 23 45 67 89</p>';
    const first = await openPage({ collector: s.collector.baseUrl, body: onePhone }); // takes the only number
    await first.ready();
    expect(first.text('#text')).toBe('Call 08 00 00 00 01');
    const second = await openPage({ collector: s.collector.baseUrl, body: onePhone });
    await second.ready();
    expect(second.text('#text')).toBe('Call 01 23 45 67 89');
    const visitId = second.window.RingTrail.visitId();
    expect(visitId).toBeGreaterThan(first.window.RingTrail.visitId());
    expect(await s.t.c.views.countDocuments({ visitId })).toBe(1);
    expect(second.errors).toEqual([]);
    first.close();
    second.close();
  });

  it('records the view of a page served over plain http, which has no crypto.randomUUID, without a visitor id', async () => {
    // Browsers give crypto.randomUUID to secure contexts only (https, localhost).
    const page = await openPage({ collector: s.collector.baseUrl, body: '<p>No phone here</p>', beforeParse: (w) => Object.defineProperty(w.crypto, 'randomUUID', { value: undefined }) });
    await page.ready();
    const visitId = page.window.RingTrail.visitId();
    expect(visitId).toBeGreaterThan(0);
    expect((await s.t.c.visits.findOne({ _id: visitId }))!.uniqueVisitorId).toBeNull();
    // The visit and its key (issue 79), no visitor id.
    expect(page.window.document.cookie).toMatch(new RegExp(`^tracker_visit_id=${visitId}; tracker_visit_key=[A-Za-z0-9_-]{22}$`));
    expect(page.errors).toEqual([]);
    page.close();
  });

  it('stores nothing and swaps nothing for a page of an origin the domain does not allow', async () => {
    const views = await s.t.c.views.countDocuments();
    const page = await openPage({ collector: s.collector.baseUrl, url: 'http://elsewhere.test/', body: PAGE });
    await page.ready();
    expect(page.text('#text')).toBe('Call 01 23 45 67 89');
    expect(await s.t.c.views.countDocuments()).toBe(views);
    page.close();
  });
});

describe('tracker.js and robots', () => {
  it('sends nothing when navigator.webdriver is set', async () => {
    const views = await s.t.c.views.countDocuments();
    const page = await openPage({
      collector: s.collector.baseUrl,
      body: PAGE,
      beforeParse: (window) => Object.defineProperty(window.navigator, 'webdriver', { get: () => true }),
    });
    await page.ready();
    await settle(100);
    expect(await s.t.c.views.countDocuments()).toBe(views);
    expect(page.text('#text')).toBe('Call 01 23 45 67 89');
    page.close();
  });

  it('sends nothing for a crawler user agent', async () => {
    const views = await s.t.c.views.countDocuments();
    const page = await openPage({ collector: s.collector.baseUrl, body: PAGE, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    await page.ready();
    await settle(100);
    expect(await s.t.c.views.countDocuments()).toBe(views);
    page.close();
  });
});
