// WORKERS=2: one database, two collector processes on one port, and one rate limit between them.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answers, exitOf, startMain } from '../helpers/main-process.ts';
import { CHROME_AGENT } from '../helpers/site-page.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-workers-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('WORKERS=2', () => {
  it('serves one port from two processes that count one rate limit, and stops them and the database on SIGTERM', async () => {
    const started = await startMain(dataDir, { WORKERS: '2', BROWSER_LIMIT_PER_IP: '20', BROWSER_LIMIT_PER_VISIT: '1000', LOG_LEVEL: 'info' });
    try {
      expect(started.output()).toContain('(2 processes)');
      const view = () =>
        fetch(`${started.baseUrl}/t/view`, {
          method: 'POST',
          // A new connection each time: the cluster hands connections, not requests, to its processes.
          headers: { origin: 'http://127.0.0.1:8080', 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8', connection: 'close' },
          body: new URLSearchParams({ key: 'pk-acme-demo', visit_id: '0', url: 'http://127.0.0.1:8080/', page_title: 'Home', referer_url: '', phones: '0123456789' }).toString(),
        }).then((r) => r.status);
      const statuses: number[] = [];
      for (let i = 0; i < 50; i++) statuses.push(await view());
      // Each process used to count its own: up to twice the limit got through.
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30);
      const servedBy = new Set(started.output().split('\n').flatMap((line) => (line.includes('"path":"/t/view"') ? [JSON.parse(line).pid] : [])));
      expect(servedBy.size).toBe(2);
    } finally {
      started.child.kill('SIGTERM');
      await exitOf(started.child);
    }
    expect(await answers(started.databaseUri)).toBe(false);
  }, 120_000);
});
