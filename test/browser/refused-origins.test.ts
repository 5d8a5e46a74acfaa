// A page on an origin the domain does not allow: refused, and shown to the site owner in the back
// end's install check, counted, with one action that allows it.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';

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
    for (let port = 4000; port < 4012; port++) expect(await viewFrom(`http://localhost:${port}`)).toBe(403);
    const owner = await signedInClient(s.collector.baseUrl, USER.username, USER.password);
    const refused = (await owner.get('/domains/shop.test/install')).body.refusedOrigins.map((r: any) => r.origin);
    expect(refused).toHaveLength(10);
    expect(refused).toContain('http://localhost:4011');
    expect(refused).not.toContain('http://localhost:4000');
  });
});
