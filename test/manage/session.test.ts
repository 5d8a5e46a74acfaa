// The back end's sessions over HTTP: sign in, the cookie, CSRF, sign out, rate limits, and users
// made by the fixture or invited by `npm run admin -- create-user`.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { hashPassword, UNMATCHABLE_HASH, verifyPassword } from '../../collector/src/team/passwords.ts';
import { startCollector, useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { inOneWindow } from '../helpers/windows.ts';

const PASSWORD = 'correct horse battery';
const base = trackingFixture();
const fixture = { accounts: [{ ...base.accounts[0]!, users: [{ username: 'Owner@Shop.test', password: PASSWORD }] }] };

interface Answer {
  status: number;
  body: any;
  cookie: string | null;
  headers: Headers;
}

describe('back end sessions', () => {
  const s = useSeededCollector('manage_session', fixture, { signInLimits: { perIp: 100, perUsernameAndIp: 4, signUpsPerIp: 100 } });

  async function call(method: string, path: string, { body, cookie, csrf, origin }: { body?: unknown; cookie?: string | null; csrf?: string; origin?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (cookie) headers.cookie = cookie;
    if (csrf) headers['x-csrf-token'] = csrf;
    if (origin) headers.origin = origin;
    const res = await fetch(`${s.collector.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    const setCookie = res.headers.get('set-cookie');
    return { status: res.status, body: text ? JSON.parse(text) : null, cookie: setCookie && setCookie.split(';')[0]!, headers: res.headers };
  }
  const signIn = (username: string, password: string, extra: { origin?: string } = {}) => call('POST', '/manage/api/session', { body: { username, password }, ...extra });

  it('signs in with the right password, sets an HttpOnly SameSite=Lax cookie, and knows who is signed in', async () => {
    const res = await signIn('owner@shop.test', PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ username: 'owner@shop.test', account: 'Test account', role: 'owner', domains: null, csrfToken: expect.stringMatching(/^[\w-]{20,}$/) });
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^rt_session=[\w-]{40,};/);
    expect(setCookie.toLowerCase()).toContain('httponly');
    expect(setCookie.toLowerCase()).toContain('samesite=lax');
    expect(setCookie.toLowerCase()).toContain('path=/manage');
    expect(setCookie.toLowerCase()).not.toContain('secure'); // plain http here; https gets Secure
    const me = await call('GET', '/manage/api/session', { cookie: res.cookie });
    expect(me).toMatchObject({ status: 200, body: res.body });
    expect(await call('GET', '/manage/api/session')).toMatchObject({ status: 401, body: { error: 'Not signed in' } });
    expect(await call('GET', '/manage/api/session', { cookie: 'rt_session=forged' })).toMatchObject({ status: 401 });
  });

  it('answers a path no route has in its JSON envelope, so the back end shows a reason, not a parse error', async () => {
    const { cookie } = await signIn('owner@shop.test', PASSWORD);
    // A call's page opened without its id asked for this path and showed "Unexpected token 'N'".
    expect(await call('GET', '/manage/api/domains/shop.test/calls/', { cookie })).toMatchObject({ status: 404, body: { error: 'No such path: GET /manage/api/domains/shop.test/calls/' } });
    expect(await call('GET', '/manage/api/nothing-here')).toMatchObject({ status: 404, body: { error: 'No such path: GET /manage/api/nothing-here' } });
    // A route's own 404 and a known path's other method keep their answers.
    expect(await call('GET', '/manage/api/domains/shop.test/calls/999999', { cookie })).toMatchObject({ status: 404, body: { error: 'No call 999999 in this domain' } });
    const patched = await call('PATCH', '/manage/api/session', { cookie });
    expect(patched).toMatchObject({ status: 405, body: { error: 'Method not allowed: PATCH /manage/api/session' } });
    expect(patched.headers.get('allow')).toContain('POST');
  });

  it('answers the same for a wrong password and an unknown user, and stores only a scrypt hash', async () => {
    for (const [username, password] of [['owner@shop.test', 'wrong password'], ['nobody@shop.test', PASSWORD]] as const) {
      expect(await signIn(username, password)).toMatchObject({ status: 401, body: { error: 'Wrong username or password' }, cookie: null });
    }
    expect(await call('POST', '/manage/api/session', { body: { username: 'owner@shop.test' } })).toMatchObject({ status: 400, body: { error: 'username and password are required' } });
    const user = (await s.t.c.users.findOne({ _id: 'owner@shop.test' }))!;
    expect(user.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(JSON.stringify(await s.t.c.users.find().toArray())).not.toContain(PASSWORD);
  });

  it('signs out only with the CSRF token, and the session ends', async () => {
    const { cookie, body } = await signIn('owner@shop.test', PASSWORD);
    expect(await call('DELETE', '/manage/api/session', { cookie })).toMatchObject({ status: 403, body: { error: 'Missing or wrong CSRF token' } });
    expect(await call('DELETE', '/manage/api/session', { cookie, csrf: 'not-the-token' })).toMatchObject({ status: 403 });
    expect((await call('GET', '/manage/api/session', { cookie })).status).toBe(200);
    const out = await call('DELETE', '/manage/api/session', { cookie, csrf: body.csrfToken });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^rt_session=;/);
    expect(await call('GET', '/manage/api/session', { cookie })).toMatchObject({ status: 401 });
  });

  it('refuses a sign-in posted from another site', async () => {
    expect(await signIn('owner@shop.test', PASSWORD, { origin: 'http://evil.test' })).toMatchObject({ status: 403, body: { error: 'Cross-site request refused' }, cookie: null });
  });

  it('limits sign-in attempts at one username, even with the right password afterwards', async () => {
    await inOneWindow(900); // all the test's requests in one window of the limit
    const username = 'limited@shop.test';
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await signIn(username, 'guess'));
    expect(answers.slice(0, 4).map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect(answers[4]).toMatchObject({ status: 429, body: { error: expect.stringMatching(/^Too many sign-in attempts: retry in \d+ s$/) } });
    expect(Number(answers[4]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  describe('from many addresses (behind a proxy of ours: X-Forwarded-For)', () => {
    const limits = { perIp: 6, perUsernameAndIp: 3, signUpsPerIp: 100 };
    const signInFrom = async (baseUrl: string, ip: string, username: string, password: string) =>
      (await fetch(`${baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ username, password }) })).status;

    it('never locks a user out: failures elsewhere at their username do not refuse the right password from another address', async () => {
      await inOneWindow(900); // all the test's requests in one window of the limit
      const proxied = await startCollector(s.t.db, { proxyHops: 1, signInLimits: limits, delivery: { run: false } });
      try {
        // Ten addresses each fail at the owner's username until refused.
        for (let i = 1; i <= 10; i++) {
          const answers = [];
          for (let n = 0; n < 4; n++) answers.push(await signInFrom(proxied.baseUrl, `198.51.100.${i}`, 'owner@shop.test', `guess ${n}`));
          expect(answers).toEqual([401, 401, 401, 429]);
        }
        expect(await signInFrom(proxied.baseUrl, '203.0.113.50', 'owner@shop.test', PASSWORD)).toBe(200);
        // An address that failed under the limit still signs in, and its right password is not counted.
        expect(await signInFrom(proxied.baseUrl, '203.0.113.51', 'owner@shop.test', 'typo')).toBe(401);
        for (let n = 0; n < 4; n++) expect(await signInFrom(proxied.baseUrl, '203.0.113.51', 'owner@shop.test', PASSWORD)).toBe(200);
        // One address still cannot guess on: its failures at other usernames count too.
        const spread = [];
        for (let n = 0; n < 7; n++) spread.push(await signInFrom(proxied.baseUrl, '203.0.113.52', `user${n}@shop.test`, 'guess'));
        expect(spread).toEqual([401, 401, 401, 401, 401, 401, 429]);
      } finally {
        await proxied.close();
      }
    });

    it('counts simultaneous guesses from one address exactly: no burst slips under the limit', async () => {
      await inOneWindow(900); // all the test's requests in one window of the limit
      // Only the per-username limit binds here (the per-ip one is far), so its count is exact.
      const proxied = await startCollector(s.t.db, { proxyHops: 1, signInLimits: { ...limits, perIp: 100 }, delivery: { run: false } });
      try {
        const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => signInFrom(proxied.baseUrl, '203.0.113.60', 'owner@shop.test', `burst ${n}`)));
        expect(answers.filter((a) => a === 401)).toHaveLength(limits.perUsernameAndIp);
        expect(answers.filter((a) => a === 429)).toHaveLength(12 - limits.perUsernameAndIp);
      } finally {
        await proxied.close();
      }
    });
  });

  it('checks an unknown user\'s password at the cost of a real one, against a hash no password matches', async () => {
    const real = await hashPassword('anything at all');
    const cost = (hash: string) => hash.split('$').slice(0, 4);
    expect(cost(UNMATCHABLE_HASH)).toEqual(cost(real));
    expect(await verifyPassword('', UNMATCHABLE_HASH)).toBe(false);
    expect(await verifyPassword(PASSWORD, UNMATCHABLE_HASH)).toBe(false);
    expect((await signIn('nobody@shop.test', PASSWORD)).body).toEqual((await signIn('owner@shop.test', 'wrong password')).body);
  });

  it('invites a user from the command line: a link, with which they choose a password and are signed in', async () => {
    const admin = (...args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', 'collector/src/cli/admin.ts', ...args], { env: { ...process.env, MONGODB_URI: inject('mongodbUri'), MONGODB_DB: s.t.db.databaseName, LOG_LEVEL: 'silent' } });
    const { stdout } = await admin('create-user', '--account', 'Test account', '--username', 'New.Hire@shop.test', '--role', 'analyst');
    expect(stdout).toContain('Invitation of new.hire@shop.test to account Test account as analyst');
    const url = /^(http\S+)$/m.exec(stdout)![1]!;
    expect(url).toMatch(/^http:\/\/\S+\/manage\/#\/accept\?token=[\w-]{43}$/);
    const token = new URLSearchParams(new URL(url).hash.split('?')[1]).get('token');
    // No password was printed, and none works until one is chosen.
    expect(stdout).not.toMatch(/password:/i);
    expect(await call('POST', '/manage/api/invitations/check', { body: { token } })).toMatchObject({ status: 200, body: { kind: 'invitation', username: 'new.hire@shop.test', account: 'Test account', role: 'analyst' } });
    expect(await call('POST', '/manage/api/invitations/accept', { body: { token, password: 'short' } })).toMatchObject({ status: 400, body: { error: 'password: must be at least 12 characters' } });
    expect(await call('POST', '/manage/api/invitations/accept', { body: { token, password: 'qwertyuiopasdfgh' } })).toMatchObject({ status: 400, body: { error: 'password: is one of the most common passwords: choose another' } });
    const accepted = await call('POST', '/manage/api/invitations/accept', { body: { token, password: 'a hire of our own' } });
    expect(accepted).toMatchObject({ status: 200, body: { username: 'new.hire@shop.test', role: 'analyst', csrfToken: expect.any(String) }, cookie: expect.stringMatching(/^rt_session=/) });
    expect(await call('GET', '/manage/api/session', { cookie: accepted.cookie })).toMatchObject({ status: 200, body: { username: 'new.hire@shop.test' } });
    expect(await call('POST', '/manage/api/invitations/accept', { body: { token, password: 'a hire of our own' } })).toMatchObject({ status: 410, body: { error: 'This invitation was already used: sign in with the password chosen then' } });
    expect((await signIn('new.hire@shop.test', 'a hire of our own')).status).toBe(200);
    // The first user of an empty production database: the account is made, and said to be; an owner.
    const first = await admin('create-user', '--account', 'New account', '--username', 'first@new.test');
    expect(first.stdout).toContain('Account New account created: there was none by that name.');
    expect(first.stdout).toContain('Invitation of first@new.test to account New account as owner');
    expect(await s.t.c.accounts.findOne({ _id: 'New account' })).toMatchObject({ name: 'New account' });
    // A forgotten password: the operator's reset link.
    const reset = await admin('reset-password', '--username', 'new.hire@shop.test');
    const resetToken = new URLSearchParams(new URL(/^(http\S+)$/m.exec(reset.stdout)![1]!).hash.split('?')[1]).get('token');
    expect(await call('POST', '/manage/api/invitations/accept', { body: { token: resetToken, password: 'a second hire password' } })).toMatchObject({ status: 200, body: { username: 'new.hire@shop.test', role: 'analyst' } });
    expect(await call('GET', '/manage/api/session', { cookie: accepted.cookie })).toMatchObject({ status: 401 }); // a reset ends every session
    expect((await signIn('new.hire@shop.test', 'a hire of our own')).status).toBe(401);
    await expect(admin('create-user', '--account', 'Another', '--username', 'not-an-address')).rejects.toMatchObject({ stderr: expect.stringContaining('--username: "not-an-address" is not an e-mail address') });
    expect(await s.t.c.accounts.findOne({ _id: 'Another' })).toBeNull();
  }, 60_000);
});
