// Behind the shipped proxy: deploy/nginx.conf (its upstream and port pointed at this test's
// collector) run by a real nginx, and the collector configured with compose.yaml's TRUST_PROXY.
// Clients connect from addresses of their own (127.0.0.2, 127.0.0.3...) and forge X-Forwarded-For
// chains: the numbers per address, the sign-in limit and the browser doors' rate limit still count
// the address nginx saw, and that address is the one stored.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../collector/src/config.ts';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';
import { freePort } from '../helpers/ports.ts';
import { until } from '../helpers/until.ts';
import { inOneWindow } from '../helpers/windows.ts';

/** Debian's nginx (`.ci/run` installs nginx-light), where root's PATH and others' both find it. */
const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
const LIMIT = 4;
const PASSWORD = 'the right password';
const BROWSER_PER_IP = 8;
const SIGN_IN_PER_USERNAME = 3;

/** compose.yaml's TRUST_PROXY, read as the collector reads it. */
function shippedProxyHops(): number {
  const value = /TRUST_PROXY: "([^"]+)"/.exec(readFileSync('compose.yaml', 'utf8'))?.[1];
  if (!value) throw new Error('compose.yaml sets no TRUST_PROXY');
  return loadConfig({ TRUST_PROXY: value }).proxyHops;
}


/** deploy/nginx.conf as shipped, but for where it listens and where the collector is. */
function nginxConfig(dir: string, listen: number, collectorPort: number): string {
  const shipped = readFileSync('deploy/nginx.conf', 'utf8');
  const server = shipped.replace('server collector:8080;', `server 127.0.0.1:${collectorPort};`).replace('listen 80;', `listen 127.0.0.1:${listen};`);
  if (server === shipped || !server.includes(`127.0.0.1:${listen}`)) throw new Error('deploy/nginx.conf no longer has the upstream and listen lines this test points elsewhere');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${dir}/${kind};`).join('\n  ');
  return `daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents {}\nhttp {\n  access_log off;\n  ${temp}\n${server}\n}\n`;
}

interface Answer {
  status: number;
  body: any;
}

/** One request through the proxy from the client address `from`, on a connection of its own. */
function request(port: number, from: string, method: string, pathname: string, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, localAddress: from, method, path: pathname, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: text.startsWith('{') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('behind the shipped nginx, with forged X-Forwarded-For chains', () => {
  let t: TestDatabase;
  let collector: RunningCollector;
  let nginx: ChildProcess;
  let proxyPort: number;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-nginx-'));

  beforeAll(async () => {
    t = await testDatabase('behind_nginx');
    await seed(t.c, trackingFixture({ numbersPerAddress: LIMIT, exclusive: Array.from({ length: 30 }, (_, i) => `08000000${i + 10}`), users: [{ username: 'owner@shop.test', password: PASSWORD }] }));
    collector = await startCollector(t.db, {
      proxyHops: shippedProxyHops(),
      browserLimits: { perIp: BROWSER_PER_IP, perVisit: 1000 },
      signInLimits: { perIp: 100, perUsernameAndIp: SIGN_IN_PER_USERNAME, signUpsPerIp: 100 },
      delivery: { run: false },
    });
    proxyPort = await freePort();
    writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(dir, proxyPort, Number(new URL(collector.baseUrl).port)));
    nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    nginx.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    nginx.once('exit', (code) => {
      output += `\n(nginx exited with ${code})`;
    });
    await until(async () => (await request(proxyPort, '127.0.0.1', 'GET', '/healthz', {}, '').then((a) => a.status, () => 0)) === 200 || nginx.exitCode !== null, 'nginx to pass /healthz on');
    if (nginx.exitCode !== null) throw new Error(`nginx did not start:\n${output}`);
  });
  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await collector?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads compose.yaml\'s TRUST_PROXY as one proxy', () => {
    expect(shippedProxyHops()).toBe(1);
  });

  const view = (from: string, forged: string) =>
    request(proxyPort, from, 'POST', '/t/view', { origin: 'http://shop.test', 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8', 'x-forwarded-for': forged }, new URLSearchParams({ key: 'pk-test-key', visit_id: '0', url: 'http://shop.test/', page_title: 'Home', referer_url: '', phones: '0123456789' }).toString());

  it('gives one client address its limit of numbers whatever X-Forwarded-For it writes, and stores the address nginx saw', async () => {
    await inOneWindow(60); // all the test's requests in one window of the limit
    const answers = [];
    for (let i = 0; i < LIMIT + 2; i++) answers.push(await view('127.0.0.2', `198.51.100.${i}, 10.0.0.${i}`));
    const numbered = answers.filter((a) => Object.keys(a.body.surtaxPhones ?? {}).length > 0);
    expect(numbered).toHaveLength(LIMIT);
    expect(answers.map((a) => a.status)).toEqual(Array(LIMIT + 2).fill(200));
    expect(await t.c.views.findOne({ _id: answers[0]!.body.viewId })).toMatchObject({ ip: '127.0.0.2' });
    // Another client address is served: the limit is per address, not for everyone behind the proxy.
    const other = await view('127.0.0.5', '127.0.0.2');
    expect(Object.keys(other.body.surtaxPhones)).toEqual(['0123456789']);
    expect(await t.c.views.findOne({ _id: other.body.viewId })).toMatchObject({ ip: '127.0.0.5' });
  });

  it('limits the browser doors per client address whatever X-Forwarded-For it writes', async () => {
    await inOneWindow(60); // all the test's requests in one window of the limit
    const statuses = [];
    for (let i = 0; i < BROWSER_PER_IP + 3; i++) statuses.push((await view('127.0.0.3', `203.0.113.${i}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(BROWSER_PER_IP);
    expect(statuses.slice(BROWSER_PER_IP)).toEqual([429, 429, 429]);
  });

  it('limits password guesses per client address whatever X-Forwarded-For it writes, and never locks out another address', async () => {
    await inOneWindow(60); // all the test's requests in one window of the limit
    const signIn = (from: string, forged: string, password: string) =>
      request(proxyPort, from, 'POST', '/manage/api/session', { 'content-type': 'application/json', 'x-forwarded-for': forged }, JSON.stringify({ username: 'owner@shop.test', password })).then((a) => a.status);
    const guesses = [];
    for (let i = 0; i < SIGN_IN_PER_USERNAME + 3; i++) guesses.push(await signIn('127.0.0.4', `192.0.2.${i}`, `guess ${i}`));
    expect(guesses).toEqual([...Array(SIGN_IN_PER_USERNAME).fill(401), 429, 429, 429]);
    expect(await signIn('127.0.0.6', '127.0.0.4', PASSWORD)).toBe(200);
  });
});
