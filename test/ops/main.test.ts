// The collector as `npm start` runs it: embedded database, demo seed, graceful shutdown, restart.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../collector/src/config.ts';
import { answers, exitOf, runAdmin, startMain as startMainIn } from '../helpers/main-process.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';
import { until } from '../helpers/until.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const startMain = (env: Record<string, string>) => startMainIn(dataDir, env);

const demoView = (visitId: number) =>
  new URLSearchParams({
    api_key: 'track-acme-demo', visit_id: String(visitId), ip: '203.0.113.9', url: 'https://acme.example/', page_title: 'Home',
    is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789',
  });

describe('npm start', () => {
  it('seeds the demo on an empty database, serves it, stops cleanly, and keeps the data across a restart', async () => {
    const first = await startMain({ DEMO_HISTORY_DAYS: '2' });
    expect(first.output()).toContain('api_key (/ospView, /ospClick, /ospExpiration): track-acme-demo');
    // Printed once the collector answers: the history is made behind it.
    await until(() => first.output().includes('Demo history: making 2 days of traffic in the background'), 'the demo history line');
    expect(first.databaseUri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/); // loopback only
    expect(await (await fetch(`${first.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${first.baseUrl}/readyz`)).json()).toEqual({ status: 'ready' });
    const view = await (await fetch(`${first.baseUrl}/ospView`, { method: 'POST', body: demoView(0) })).json();
    expect(view.status).toBe('OK');
    expect(first.output()).toContain(`Demo site: ${first.baseUrl}/demo/`);
    expect(first.output()).toContain('Transcripts are off: set TRANSCRIBE_URL (local: the bundled engine, installed on first start)');
    for (const page of ['/demo/', '/demo/click']) {
      expect(await (await fetch(first.baseUrl + page)).text()).toContain('<script async src="/tracker.js" data-key="pk-acme-demo"');
    }
    expect((await fetch(`${first.baseUrl}/tracker.js`)).status).toBe(200);
    const home = await (await fetch(`${first.baseUrl}/`)).text();
    for (const link of ['/manage/', '/docs', '/demo/', '/healthz']) expect(home).toContain(`href="${link}"`);
    // The demo pages, opened by either loopback name on whatever port it got, may call the tracker's doors.
    const port = new URL(first.baseUrl).port;
    const pageView = (origin: string) =>
      fetch(`${first.baseUrl}/t/view`, {
        method: 'POST',
        headers: { origin, 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8' },
        body: new URLSearchParams({ key: 'pk-acme-demo', visit_id: '0', url: `${origin}/demo/`, page_title: 'Demo', referer_url: '', phones: '01 23 45 67 89' }).toString(),
      }).then((r) => r.status);
    expect(await pageView(`http://127.0.0.1:${port}`)).toBe(200);
    expect(await pageView(`http://localhost:${port}`)).toBe(200);
    expect(await pageView('http://127.0.0.1:1')).toBe(403);

    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);
    expect(await answers(first.databaseUri)).toBe(false); // the embedded database stopped with it

    const second = await startMain({});
    try {
      const again = await (await fetch(`${second.baseUrl}/ospView`, { method: 'POST', body: demoView(view.visitId) })).json();
      expect(again.visitId).toBe(view.visitId);
      expect(again.surtaxPhones).toEqual(view.surtaxPhones);
      expect(again.viewId).toBeGreaterThan(view.viewId);
    } finally {
      second.child.kill('SIGTERM');
      await exitOf(second.child);
    }
  }, 90_000);

  it('loads no demo in production: an empty database stays empty, the demo user and keys are refused', async () => {
    const prodDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-main-prod-'));
    const prod = await startMainIn(prodDir, { NODE_ENV: 'production', PUBLIC_URL: 'https://calls.example.com' });
    try {
      expect(prod.output()).not.toContain('track-acme-demo');
      expect(prod.output()).toContain('No user yet (no demo: DEMO is off): npm run admin -- create-user');
      expect(prod.output()).toContain('Mode: production (NODE_ENV=production; only unset, development and test are not production): demo off, sign-up off');
      expect(prod.output()).not.toContain('Demo site:');
      const view = await (await fetch(`${prod.baseUrl}/ospView`, { method: 'POST', body: demoView(0) })).json();
      expect(view.status).toBe('AUTHENTICATION_ERROR');
      const signIn = await fetch(`${prod.baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: prod.baseUrl }, body: JSON.stringify({ username: 'demo@acme.example', password: 'acme-demo-password' }) });
      expect(signIn.status).toBe(401);
      const cc = await (await fetch(`${prod.baseUrl}/agent-api/agentStats`, { method: 'POST', body: new URLSearchParams({ apiKey: 'cc-acme-demo' }) })).json();
      expect(cc.status).toBe('NOK');
      expect((await fetch(`${prod.baseUrl}/demo/`)).status).toBe(404);
      expect(await (await fetch(`${prod.baseUrl}/`)).text()).not.toContain('/demo/');
    } finally {
      prod.child.kill('SIGTERM');
      await exitOf(prod.child);
      rmSync(prodDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('says to sign up when the demo is off and sign-up on (issue 81)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-main-sign-up-'));
    const started = await startMainIn(dir, { DEMO: 'false', SIGN_UP: 'true' });
    try {
      expect(started.output()).toContain(`No user yet (no demo: DEMO is off): sign up at ${started.baseUrl}/manage/ (SIGN_UP is on), or npm run admin -- create-user`);
    } finally {
      started.child.kill('SIGTERM');
      await exitOf(started.child);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('says in production that the invitation create-user made waits, for whom and until when', async () => {
    const prodDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-main-invited-'));
    const env = { NODE_ENV: 'production', PUBLIC_URL: 'https://calls.example.com' };
    const first = await startMainIn(prodDir, env);
    try {
      const stdout = await runAdmin(prodDir, ['create-user', '--account', 'Acme', '--username', 'boss@acme.example'], env);
      expect(stdout).toContain('https://calls.example.com/manage/#/accept?token=');
    } finally {
      first.child.kill('SIGTERM');
      await exitOf(first.child);
    }
    const again = await startMainIn(prodDir, env);
    try {
      expect(again.output()).toMatch(/No user yet: the invitation of boss@acme\.example \(account Acme\) waits, until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    } finally {
      again.child.kill('SIGTERM');
      await exitOf(again.child);
      rmSync(prodDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to start in production without PUBLIC_URL, saying why (links never come from Host)', async () => {
    const prodDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-main-nourl-'));
    try {
      await expect(startMainIn(prodDir, { NODE_ENV: 'production' })).rejects.toThrow(/exited with 1[\s\S]*PUBLIC_URL must be set in production: every link the collector mails or shows/);
    } finally {
      rmSync(prodDir, { recursive: true, force: true });
    }
  });

  it('refuses a bad environment with a message naming the variable', async () => {
    await expect(startMain({ PORT: 'eighty', TRUST_PROXY: 'maybe', BROWSER_LIMIT_PER_IP: 'lots', DEMO_PAGES: 'maybe' })).rejects.toThrow(
      /exited with 1[\s\S]*PORT: must be a port number[\s\S]*TRUST_PROXY: must be the number of proxies in front of the collector[\s\S]*BROWSER_LIMIT_PER_IP: must be a number of requests a minute[\s\S]*DEMO_PAGES: must be true or false/,
    );
  });

  it('runs in production for any NODE_ENV but unset, development and test', () => {
    for (const env of ['production', 'Production', 'prod', 'staging']) expect(loadConfig({ NODE_ENV: env })).toMatchObject({ mode: 'production', demo: false, signUp: false });
    for (const env of [undefined, 'development', 'test']) expect(loadConfig(env ? { NODE_ENV: env } : {})).toMatchObject({ mode: 'development', demo: true, signUp: true });
    // npm start (NODE_ENV unset) fetches recordings and pushes to loopback, as the docs say (issue 52); production does not.
    expect([loadConfig({}).allowPrivateWebhooks, loadConfig({ NODE_ENV: 'production' }).allowPrivateWebhooks, loadConfig({ NODE_ENV: 'production', ALLOW_PRIVATE_WEBHOOKS: 'true' }).allowPrivateWebhooks]).toEqual([true, false, true]);
  });

  it('reads TRUST_PROXY as a number of proxies: true is one, never every entry', () => {
    expect([undefined, 'false', '0', 'true', '1', '2', 'on'].map((v) => loadConfig(v ? { TRUST_PROXY: v } : {}).proxyHops)).toEqual([0, 0, 0, 1, 1, 2, 1]);
    for (const v of ['all', '-1', '11', '1.5']) expect(() => loadConfig({ TRUST_PROXY: v })).toThrow('TRUST_PROXY: must be the number of proxies in front of the collector, 0 to 10 (true means 1, false 0)');
  });

  it('reads DEMO_PAGES, the former name of DEMO, only where DEMO is unset', () => {
    expect(loadConfig({ DEMO_PAGES: 'false' }).demo).toBe(false);
    expect(loadConfig({ DEMO_PAGES: 'true', NODE_ENV: 'production' }).demo).toBe(true);
    expect(loadConfig({ DEMO: 'true', DEMO_PAGES: 'false' }).demo).toBe(true);
    expect(loadConfig({}).demo).toBe(true);
  });
});
