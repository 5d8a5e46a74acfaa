// `npm start` runs the collector under a supervisor (collector/src/supervisor.ts): a collector that
// crashes is started again on the same port and data with every write it acknowledged, repeated
// crashes end in exit 1, and nothing outlives its owner. Beside a running collector, the
// command-line tools use its database instead of killing it (db/embedded.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { publishedDatabase } from '../../collector/src/db/embedded.ts';
import { answers, collectorProcesses, exitOf, runAdmin, startMain } from '../helpers/main-process.ts';
import { freePort } from '../helpers/ports.ts';
import { until } from '../helpers/until.ts';

const SUPERVISOR = 'collector/src/supervisor.ts';
const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function freshDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-supervisor-'));
  dataDirs.push(dir);
  return dir;
}


const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] !== 'Z';
  } catch {
    return false;
  }
};

const VIEW = { api_key: 'track-acme-demo', visit_id: '0', ip: '203.0.113.9', url: 'https://acme.example/', page_title: 'Home', is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789', expiration: '0' };

describe('npm start: the supervisor', () => {
  it('starts a crashed collector again on its port and data, with every acknowledged write, and stops everything on SIGTERM', async () => {
    const dataDir = freshDataDir();
    const port = await freePort();
    const started = await startMain(dataDir, { PORT: String(port) }, { entry: SUPERVISOR });
    const base = `http://127.0.0.1:${port}`;
    const first = collectorProcesses(started.child.pid!)[0]!;
    const firstDatabase = publishedDatabase(dataDir)!;
    expect(firstDatabase.ownerPid).toBe(first);

    // Views acknowledged until the collector dies under them (as out of memory would kill it).
    const viewIds: number[] = [];
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        for (;;) {
          try {
            const body = await (await fetch(`${base}/ospView`, { method: 'POST', body: new URLSearchParams(VIEW) })).json();
            if (body.viewId) viewIds.push(body.viewId);
          } catch {
            return;
          }
        }
      }),
    );
    await until(() => viewIds.length >= 20, '20 views acknowledged');
    process.kill(first, 'SIGKILL');
    await load;

    // Its database went with it, and a new collector with a new database serves the same port.
    await until(() => !alive(firstDatabase.pid), 'the killed collector\'s database to stop');
    await until(async () => (await fetch(`${base}/readyz`).then((r) => r.status, () => 0)) === 200, 'the collector to answer again', { everyMs: 100 });
    const second = collectorProcesses(started.child.pid!)[0]!;
    expect(second).not.toBe(first);
    expect(started.output()).toMatch(/"signal":"SIGKILL".*the collector crashed: starting it again/);
    const client = await new MongoClient(publishedDatabase(dataDir)!.uri).connect();
    try {
      expect(await client.db('ringtrail').collection('views').countDocuments({ _id: { $in: viewIds } as never })).toBe(viewIds.length);
    } finally {
      await client.close();
    }
    expect((await (await fetch(`${base}/ospView`, { method: 'POST', body: new URLSearchParams(VIEW) })).json()).status).toBe('OK');

    started.child.kill('SIGTERM');
    expect(await exitOf(started.child)).toBe(0);
    await until(() => !alive(second), 'the collector to stop');
    // Its database stops with it: waited for, as it may still be closing its files when the supervisor exits.
    await until(async () => !(await answers(publishedDatabase(dataDir)?.uri ?? 'mongodb://127.0.0.1:1/')), 'the embedded database to stop');
  }, 180_000);

  it('exits 1 after 5 crashes within 5 minutes, so that a restart policy takes over', async () => {
    // The database's port taken by another program: every start of the collector fails.
    const taken = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
    try {
      const dataDir = freshDataDir();
      const started = startMain(dataDir, { DB_PORT: String((taken.address() as net.AddressInfo).port) }, { entry: SUPERVISOR });
      const failed = await started.then(() => null, (err: Error) => err.message);
      expect(failed).toMatch(/^exited with 1/);
      expect(failed).toContain('the collector crashed 5 times within 5 minutes: giving up');
      expect(failed!.match(/the collector crashed: starting it again/g)).toHaveLength(4);
    } finally {
      taken.close();
    }
  }, 120_000);

  it('refuses a bad environment once, without restarting', async () => {
    const failed = await startMain(freshDataDir(), { TRUST_PROXY: 'all' }, { entry: SUPERVISOR }).then(() => null, (err: Error) => err.message);
    expect(failed).toMatch(/^exited with 1[\s\S]*TRUST_PROXY: must be the number of proxies in front of the collector/);
    expect(failed).not.toContain('crashed');
  }, 60_000);
});

describe('the command line beside a running collector', () => {
  it('npm run admin uses the running database and leaves the collector serving; a second collector on the same data is refused', async () => {
    const dataDir = freshDataDir();
    const dbPort = await freePort();
    const running = await startMain(dataDir, { DB_PORT: String(dbPort) });
    try {
      const published = publishedDatabase(dataDir)!;
      expect(published).toEqual({ pid: expect.any(Number), ownerPid: running.child.pid, uri: `mongodb://127.0.0.1:${dbPort}/` });
      const stdout = await runAdmin(dataDir, ['create-user', '--account', 'Acme', '--username', 'second@acme.example']);
      expect(stdout).toContain('Invitation of second@acme.example to account Acme as owner');
      const token = new URLSearchParams(new URL(/^(http\S+)$/m.exec(stdout)![1]!).hash.split('?')[1]).get('token');
      // Same server, still serving, and the new user is in it.
      expect(publishedDatabase(dataDir)).toEqual(published);
      expect(alive(published.pid)).toBe(true);
      expect((await fetch(`${running.baseUrl}/readyz`)).status).toBe(200);
      const signIn = await fetch(`${running.baseUrl}/manage/api/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json', origin: running.baseUrl }, body: JSON.stringify({ token, password: 'second password 1' }) });
      expect(signIn.status).toBe(200);

      // The warning checks and the retention, run now by an operator (issue 52), on the same database.
      expect(await runAdmin(dataDir, ['check-warnings'])).toMatch(/^(Warnings: none holds now\.|\S+: [a-z-]+ since \d{4}-\d\d-\d\d \d\d:\d\d UTC \(.*\))$/m);
      expect(await runAdmin(dataDir, ['run-retention'])).toBe("Retention: 0 recording(s) past their domain's days deleted.\n");

      const second = await startMain(dataDir).then(() => null, (err: Error) => err.message);
      expect(second).toContain(`The embedded database of ${dataDir} is already run by process ${running.child.pid}`);
      expect((await fetch(`${running.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      running.child.kill('SIGTERM');
      await exitOf(running.child);
    }
    expect(publishedDatabase(dataDir)).toBeNull();
  }, 120_000);
});
