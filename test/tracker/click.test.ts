// tracker.js in click display: numbers stay behind a control until the visitor asks.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { openPage, settle } from '../helpers/site-page.ts';

const fixture = trackingFixture({ displayMode: 'click', exclusive: Array.from({ length: 20 }, (_, i) => `08000000${i + 10}`) });
// A second domain whose only pool is shared: one number, a code per visitor.
fixture.accounts[0]!.domains.push({
  ...fixture.accounts[0]!.domains[0]!,
  name: 'coded.test',
  apiKey: 'track-coded-key',
  dataApiKey: 'data-coded-key',
  offlineApiKey: 'offline-coded-key',
  publicKey: 'pk-coded-key',
  allowedOrigins: ['http://coded.test'],
  pools: [{ type: 9, usage: 'online', codeDigits: 4, numbers: ['0400000099'] }],
});

// A US domain: its people write one number in several forms.
fixture.accounts[0]!.domains.push({
  ...fixture.accounts[0]!.domains[0]!,
  name: 'chicago.test',
  country: 'US',
  apiKey: 'track-chicago-key',
  dataApiKey: 'data-chicago-key',
  offlineApiKey: 'offline-chicago-key',
  publicKey: 'pk-chicago-key',
  sitePhones: ['(312) 555-0100', '(312) 555-0199'],
  pools: [{ type: 100, usage: 'online', numbers: ['(312) 555-0140', '(312) 555-0141', '(312) 555-0142'] }],
} as never);

const s = useSeededCollector('tracker_click', fixture);

const PAGE = `
  <p id="text">Call 01 23 45 67 89 today</p>
  <a id="link" href="tel:+33123456789">Call us</a>
  <a id="link-with-number" href="tel:0987654321">09 87 65 43 21</a>`;

const click = (page: Awaited<ReturnType<typeof openPage>>, selector: string) =>
  page.document.querySelector(selector)!.dispatchEvent(new page.window.MouseEvent('click', { bubbles: true, cancelable: true }));

describe('tracker.js in click display', () => {
  it('hides each site number behind a "show number" control, records the view and assigns nothing', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: PAGE });
    await page.ready();
    expect(page.text('#text')).toBe('Call Show number today');
    expect(page.document.querySelector('#text a')!.getAttribute('href')).toBe('tel:0123456789');
    expect(page.text('#link-with-number')).toBe('Show number');
    const view = await s.t.c.views.findOne({ visitId: page.window.RingTrail.visitId() });
    expect(view).toMatchObject({ directDisplay: false, phones: [] });
    expect(await s.t.c.leases.countDocuments({ visitId: view!.visitId })).toBe(0);
    page.close();
  });

  it('reveals a tracking number on click, everywhere the page shows that phone, and records the click with its view', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: PAGE + '<p id="again">Or 01.23.45.67.89</p>', attributes: { label: 'Afficher le numéro' } });
    await page.ready();
    expect(page.text('#again')).toBe('Or Afficher le numéro');
    const control = page.document.querySelector<HTMLAnchorElement>('#text a')!;
    expect(click(page, '#text a')).toBe(false); // the click is the tracker's, not a call yet
    const visitId = page.window.RingTrail.visitId();
    await expect.poll(() => page.text('#text')).not.toContain('Afficher');
    const lease = (await s.t.c.leases.findOne({ visitId, phone: '0123456789' }))!;
    const spaced = lease.number.match(/\d\d/g)!.join(' ');
    expect(page.text('#text')).toBe(`Call ${spaced} today`);
    expect(page.text('#again')).toBe(`Or ${lease.number.match(/\d\d/g)!.join('.')}`);
    expect(control.getAttribute('href')).toBe(`tel:${lease.number}`);
    expect(page.document.querySelector('#link')!.getAttribute('href')).toBe(`tel:+33${lease.number.slice(1)}`);
    expect(page.text('#link-with-number')).toBe('Afficher le numéro'); // another phone, still hidden
    const view = (await s.t.c.views.findOne({ visitId }))!;
    expect(await s.t.c.clicks.findOne({ viewId: view._id })).toMatchObject({ kind: 'click', visitId, phone: '0123456789', leaseId: lease._id });
    expect(lease.viewId).toBe(view._id);
    expect(click(page, '#text a')).toBe(true); // revealed: now an ordinary tel: link
    expect(page.errors).toEqual([]);
    page.close();
  });

  it('reveals a number in every form the page writes it in with one click, and no other number', async () => {
    const body = '<p id="national">Call (312) 555-0100</p><p id="intl">Abroad: +1 312-555-0100</p><p id="one">Or 1-312-555-0100</p><p id="other">Sales (312) 555-0199</p>';
    const page = await openPage({ collector: s.collector.baseUrl, body, attributes: { key: 'pk-chicago-key' } });
    await page.ready();
    expect(page.text('#intl')).toBe('Abroad: Show number');
    click(page, '#national a');
    await expect.poll(() => [page.text('#national'), page.text('#intl'), page.text('#one')].some((t) => t.includes('Show'))).toBe(false);
    const shown = /\((\d{3})\) (\d{3})-(\d{4})/.exec(page.text('#national'))!;
    expect(page.text('#national')).toMatch(/^Call \(312\) 555-014[012]$/);
    expect(page.text('#intl')).toBe(`Abroad: +1 ${shown[1]}-${shown[2]}-${shown[3]}`);
    expect(page.text('#one')).toBe(`Or 1-${shown[1]}-${shown[2]}-${shown[3]}`);
    expect(page.text('#other')).toBe('Sales Show number'); // another phone, still hidden
    // One number held for the visit, whichever form asked.
    expect(await s.t.c.leases.distinct('number', { visitId: page.window.RingTrail.visitId() })).toHaveLength(1);
    expect(page.errors).toEqual([]);
    page.close();
  });

  it('a tel: link is its own control', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: PAGE });
    await page.ready();
    click(page, '#link');
    await expect.poll(() => page.document.querySelector('#link')!.getAttribute('href')).toMatch(/^tel:\+338/);
    expect(page.text('#text')).toMatch(/^Call 08 00 00 00 \d\d today$/);
    page.close();
  });

  it('shows the code next to a shared number', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, url: 'http://coded.test/', attributes: { key: 'pk-coded-key' }, body: PAGE });
    await page.ready();
    click(page, '#text a');
    await expect.poll(() => page.text('#text')).toMatch(/^Call 04 00 00 00 99 \(code \d{4}\) today$/);
    expect(page.document.querySelector('#text a')!.getAttribute('href')).toBe('tel:0400000099');
    page.close();
  });

  it('shows the site number when no tracking number is left, and asks only once', async () => {
    const page = await openPage({ collector: s.collector.baseUrl, body: PAGE });
    await page.ready();
    const free = await s.t.c.trackingNumbers.find({ domainId: 'shop.test', type: 1 }).toArray();
    // Every number of the pool held by other visitors.
    for (const n of free) await s.collector.post('/ospClick', { api_key: 'track-test-key', phone: '0987654321', type: 1 });
    const clicksBefore = await s.t.c.clicks.countDocuments();
    click(page, '#text a');
    await expect.poll(() => page.text('#text')).toBe('Call 01 23 45 67 89 today');
    expect(click(page, '#text a')).toBe(true); // now a link that dials the site's own number
    await settle(200);
    expect(await s.t.c.clicks.countDocuments()).toBe(clicksBefore + 1);
    expect(page.errors).toEqual([]);
    page.close();
  });
});
