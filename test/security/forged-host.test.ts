// Hole 1 of issue 52, as the attack: a request naming another Host (or X-Forwarded-Host, behind a
// trusted proxy) must not decide where a link points. Before the fix, a forgot-password request with
// `Host: attacker.example` mailed the real user a link to the attacker's page, token included.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { useMailedCollector } from '../helpers/mailed-collector.ts';

const OWNER = { username: 'owner@shop.test', password: 'forged host owner password' };
const PUBLIC_URL = 'https://calls.shop.test';
const ATTACKER = 'attacker.example';

/** A request with the headers a browser would never let a page forge. */
function forged(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { method, headers: { host: ATTACKER, 'x-forwarded-host': ATTACKER, 'x-forwarded-proto': 'https', ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

describe('a forged Host never decides where a link points', () => {
  // Behind a trusted proxy: X-Forwarded-Host would count as the host if anything read it.
  const m = useMailedCollector('forged_host', trackingFixture({ users: [OWNER] }), { proxyHops: 1, delivery: { pollMs: 50, publicOnly: false }, publicUrl: PUBLIC_URL });

  it('mails a password reset link to PUBLIC_URL, not to the Host the request named', async () => {
    const asked = await forged(m.collector.baseUrl, 'POST', '/manage/api/password-reset', {}, { username: OWNER.username });
    expect(asked.status).toBe(200);
    const [mail] = await m.inbox.received(1);
    expect(mail!.text).toContain(`${PUBLIC_URL}/manage/#`);
    expect(mail!.text).not.toContain(ATTACKER);
    expect(mail!.html).not.toContain(ATTACKER);
  });

  it('shows and mails invitations, shared links and the install tag at PUBLIC_URL', async () => {
    const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    const session = await fetch(`${m.collector.baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OWNER) });
    const { csrfToken } = (await session.json()) as { csrfToken: string };
    const headers = { cookie: session.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken };
    const invited = await forged(m.collector.baseUrl, 'POST', '/manage/api/account/members', headers, { username: 'new@shop.test', role: 'analyst' });
    expect(invited.status).toBe(201);
    expect(invited.body.invitation.url.startsWith(`${PUBLIC_URL}/manage/`)).toBe(true);
    const mails = await m.inbox.received(2);
    expect(mails.at(-1)!.text).toContain(`${PUBLIC_URL}/manage/`);
    expect(mails.at(-1)!.text).not.toContain(ATTACKER);

    const domain = (await owner.get('/domains')).body[0].name as string;
    const shared = await forged(m.collector.baseUrl, 'POST', `/manage/api/domains/${domain}/shared-links`, headers, { label: 'Board' });
    expect(shared.status).toBe(201);
    expect(shared.body.url.startsWith(`${PUBLIC_URL}/shared/`)).toBe(true);
    await owner.call('POST', `/domains/${domain}/keys/public`);
    const install = await forged(m.collector.baseUrl, 'GET', `/manage/api/domains/${domain}/install`, headers);
    expect(install.body.scriptTag).toContain(`src="${PUBLIC_URL}/tracker.js"`);
  });
});
