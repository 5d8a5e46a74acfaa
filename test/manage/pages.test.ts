// The back end's pages as served: the shell with its Content-Security-Policy, the two built
// assets, and nothing else under /manage/assets.
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';

describe('back end pages', () => {
  const s = useSeededCollector('manage_pages', { accounts: [] });

  it('serves the shell with a strict CSP, and /manage sends there', async () => {
    const shell = await fetch(`${s.collector.baseUrl}/manage/`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(shell.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await shell.text()).toContain('<script defer src="/manage/assets/app.js"></script>');
    const bare = await fetch(`${s.collector.baseUrl}/manage`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([302, '/manage/']);
  });

  it('serves the built script and styles, and nothing else', async () => {
    const js = await fetch(`${s.collector.baseUrl}/manage/assets/app.js`);
    expect([js.status, js.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect((await js.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${s.collector.baseUrl}/manage/assets/app.css`)).status).toBe(200);
    for (const file of ['constructor', 'toString', '..%2F..%2Fpackage.json', 'app.js.map']) {
      expect((await fetch(`${s.collector.baseUrl}/manage/assets/${file}`)).status).toBe(404);
    }
  });
});
