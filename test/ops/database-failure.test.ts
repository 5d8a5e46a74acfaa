// The embedded database dies (SIGKILL) or stalls (SIGSTOP) under a running collector, as
// `npm start` runs it: a dead one is logged and started again on the same data; a stalled one
// makes requests fail within the operation timeout instead of hanging, /readyz says 503, and
// both recover by themselves.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitOf, startMain, type Started } from '../helpers/main-process.ts';
import { until } from '../helpers/until.ts';
import { publishedDatabase } from '../../collector/src/db/embedded.ts';

const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const VIEW = { api_key: 'track-acme-demo', ip: '203.0.113.9', url: 'https://acme.example/', page_title: 'Home', is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789' };
/** A bound on each request of the test, so that a hanging collector fails it instead of stalling it. */
const PATIENCE = { signal: () => AbortSignal.timeout(20_000) };

async function view(base: string, visitId = 0): Promise<{ status: string; visitId?: number }> {
  const res = await fetch(`${base}/ospView`, { method: 'POST', body: new URLSearchParams({ ...VIEW, visit_id: String(visitId) }), signal: PATIENCE.signal() });
  return res.json();
}
/** The process's state letter in /proc (`T`: stopped by a signal). */
const stateOf = (pid: number) => /\) (\w)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
const ready = async (base: string) => (await fetch(`${base}/readyz`, { signal: PATIENCE.signal() })).status;

async function started(): Promise<{ main: Started; dataDir: string; databasePid: () => number }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-db-failure-'));
  dataDirs.push(dataDir);
  const main = await startMain(dataDir, { DB_OPERATION_TIMEOUT_MS: '2000' });
  return { main, dataDir, databasePid: () => publishedDatabase(dataDir)!.pid };
}

async function stop(main: Started): Promise<void> {
  main.child.kill('SIGTERM');
  await exitOf(main.child);
}

describe('a collector whose database fails', () => {
  it('logs a database that died, starts it again on the same data, and serves again', async () => {
    const { main, databasePid } = await started();
    try {
      const first = await view(main.baseUrl);
      expect(first.status).toBe('OK');
      const pid = databasePid();
      process.kill(pid, 'SIGKILL');
      await expect.poll(() => main.output()).toMatch(/"level":50[^\n]*"signal":"SIGKILL"[^\n]*the embedded database exited: starting it again on the same data/);
      await expect.poll(async () => (await view(main.baseUrl, first.visitId)).status).toBe('OK');
      expect(databasePid()).not.toBe(pid);
      expect(main.output()).toContain('the embedded database is running again');
      expect((await view(main.baseUrl, first.visitId)).visitId).toBe(first.visitId); // the data is still there
      expect(await ready(main.baseUrl)).toBe(200);
    } finally {
      await stop(main);
    }
  }, 90_000);

  it('fails requests instead of hanging while the database is stalled, says so on /readyz, and recovers', async () => {
    const { main, databasePid } = await started();
    const pid = databasePid();
    try {
      expect((await view(main.baseUrl)).status).toBe('OK');
      process.kill(pid, 'SIGSTOP');
      // A signal is delivered when the kernel gets to it: on a busy machine a ping sent at once was answered.
      await until(() => stateOf(pid) === 'T', 'the database process stopped');
      expect(await ready(main.baseUrl)).toBe(503);
      expect(await view(main.baseUrl)).toMatchObject({ status: 'SYSTEM_ERROR' });
      // One operation timed out: the collector knows, and the next requests fail at once.
      await expect.poll(() => main.output()).toContain('the database does not answer: failing requests at once until it does');
      expect(await view(main.baseUrl)).toMatchObject({ status: 'SYSTEM_ERROR' });
      expect((await fetch(`${main.baseUrl}/healthz`, { signal: PATIENCE.signal() })).status).toBe(200); // the process itself is alive
      process.kill(pid, 'SIGCONT');
      await expect.poll(() => ready(main.baseUrl)).toBe(200);
      await expect.poll(async () => (await view(main.baseUrl)).status).toBe('OK');
      expect(main.output()).toContain('the database answers again');
      expect(databasePid()).toBe(pid); // stalled is not dead: nothing was restarted
    } finally {
      process.kill(pid, 'SIGCONT');
      await stop(main);
    }
  }, 90_000);
});
