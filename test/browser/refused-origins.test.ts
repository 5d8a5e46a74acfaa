// A page on an origin the domain does not allow: refused, and shown to the site owner in the back
// end's install check, counted, with one action that allows it.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';
import { NEW_REFUSED_ORIGINS_PER_MINUTE, noteRefusedOrigin } from '../../collector/src/browser/refused-origins.ts';
import { createLogger } from '../../collector/src/logger.ts';

const silent = createLogger('silent');

const USER = { username: 'owner@shop.test', password: 'owner-password-1' };
const s = useSeededCollector('refused_origins', trackingFixture({ users: [USER] }));

const viewFrom = (origin: string) =>
  fetch(`${s.collector.baseUrl}/t/view`, {
    method: 'POST',
    headers: { origin, 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8' },
    body: new URLSearchParams({ key: 'pk-test-key', visit_id: '0', url: `${origin}/`, page_title: 'Home', referer_url: '', phones: '0123456789' }).toString(),
  }).then((r) => r.status);

describe('refused origins', () => {
  it('counts the refusals of each origin for the install check, until the owner allows it', async () => {
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    expect((await owner.get('/domains/shop.test/install')).body.refusedOrigins).toEqual([]);
    expect(await viewFrom('http://localhost:3000')).toBe(403);
    expect(await viewFrom('http://localhost:3000')).toBe(403);
    expect(await viewFrom('http://127.0.0.1:3000')).toBe(403);
    const install = (await owner.get('/domains/shop.test/install')).body;
    expect(install.refusedOrigins).toEqual([
      { origin: 'http://127.0.0.1:3000', count: 1, lastAt: expect.any(String) },
      { origin: 'http://localhost:3000', count: 2, lastAt: expect.any(String) },
    ]);

    // "Allow this origin": the back end sends the allowed origins with it added.
    await owner.call('PATCH', '/domains/shop.test', { allowedOrigins: [...install.allowedOrigins, 'http://localhost:3000'] });
    expect((await owner.get('/domains/shop.test/install')).body.refusedOrigins.map((r: any) => r.origin)).toEqual(['http://127.0.0.1:3000']);
    expect(await viewFrom('http://localhost:3000')).toBe(200);
  });

  it('keeps only the last ten origins refused', async () => {
    const domain = (await s.t.c.domains.findOne({ _id: 'shop.test' }))!;
    // Three new origins a minute are taken: twelve over four minutes.
    const start = Date.now() + 60_000;
    for (let i = 0; i < 12; i++) await noteRefusedOrigin(s.t.c, domain, `http://localhost:${4000 + i}`, silent, new Date(start + Math.floor(i / 3) * 61_000));
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const refused = (await owner.get('/domains/shop.test/install')).body.refusedOrigins.map((r: any) => r.origin);
    expect(refused).toHaveLength(10);
    expect(refused).toContain('http://localhost:4011');
    expect(refused).not.toContain('http://localhost:4000');
  });

  it('keeps an origin that keeps sending, whatever others came once since', async () => {
    const domain = (await s.t.c.domains.findOne({ _id: 'shop.test' }))!;
    const start = Date.now() + 10 * 60_000;
    const at = (minute: number) => new Date(start + minute * 61_000);
    await noteRefusedOrigin(s.t.c, domain, 'https://staging.shop.test', silent, at(0));
    for (let i = 0; i < 12; i++) {
      await noteRefusedOrigin(s.t.c, domain, `https://forged${i}.example`, silent, at(1 + Math.floor(i / 3)));
      await noteRefusedOrigin(s.t.c, domain, 'https://staging.shop.test', silent, at(1 + Math.floor(i / 3)));
    }
    const refused = (await s.t.c.domains.findOne({ _id: 'shop.test' }))!.refusedOrigins!;
    expect(refused).toHaveLength(10);
    expect(refused.find((r) => r.origin === 'https://staging.shop.test')).toMatchObject({ count: 13 });
  });

  it('stores allowed origins in the form browsers send, once each', async () => {
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const res = await owner.call('PATCH', '/domains/shop.test', { allowedOrigins: ['http://Shop.TEST', 'http://shop.test/', 'http://shop.test:80', 'https://shop.test:443', 'https://shop.test'] });
    expect(res.status).toBe(200);
    expect((await s.t.c.domains.findOne({ _id: 'shop.test' }))!.allowedOrigins).toEqual(['http://shop.test', 'https://shop.test']);
  });
});

describe('refused origins, from anyone with the public key', () => {
  const b = useSeededCollector('refused_origins_forged', trackingFixture({ users: [USER] }));
  const forgedView = (origin: string) =>
    fetch(`${b.collector.baseUrl}/t/view`, {
      method: 'POST',
      headers: { origin, 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8' },
      body: new URLSearchParams({ key: 'pk-test-key', visit_id: '0', url: 'http://shop.test/', page_title: 'Home', referer_url: '' }).toString(),
    }).then((r) => r.status);
  const refused = async () => ((await b.t.c.domains.findOne({ _id: 'shop.test' }))!.refusedOrigins ?? []).map((r) => r.origin);

  it('learns only origins a browser could send, and at most three new ones a minute', async () => {
    const forged = [`http://a.test/${'x'.repeat(15_000)}`, `http://${'a'.repeat(300)}.test`, 'null', 'http://Shop.Example', 'http://b.test:80', 'ftp://c.test', 'http://user@d.test', 'http://e.test?q=1'];
    for (const origin of forged) expect(await forgedView(origin)).toBe(403);
    expect(await refused()).toEqual([]);
    const burst = Array.from({ length: 8 }, (_, i) => `https://burst${i}.example`);
    expect(await Promise.all(burst.map(forgedView))).toEqual(Array(8).fill(403));
    const kept = await refused();
    expect(kept).toHaveLength(NEW_REFUSED_ORIGINS_PER_MINUTE);
    // An origin already listed is still counted.
    expect(await forgedView(kept[0]!)).toBe(403);
    expect((await b.t.c.domains.findOne({ _id: 'shop.test' }))!.refusedOrigins!.find((r) => r.origin === kept[0])!.count).toBe(2);
  });
});
