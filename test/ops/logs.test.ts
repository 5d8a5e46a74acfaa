// Request logs are structured and carry no key.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../collector/src/app.ts';
import { createLogger } from '../../collector/src/logger.ts';
import { seed, testDatabase, type TestDatabase } from '../helpers/collector.ts';
import { API_KEY, trackingFixture, viewParams } from '../helpers/fixtures.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await testDatabase('logs');
  await seed(t.c, trackingFixture());
});
afterAll(() => t.close());

it('logs one JSON line per request with method, path and status, and never the key', async () => {
  const lines: string[] = [];
  const { app } = createApp({ db: t.db, log: createLogger('info', { write: (line: string) => void lines.push(line) }) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const body = new URLSearchParams(Object.entries(viewParams()).map(([k, v]) => [k, String(v)]));
    await fetch(`${base}/ospView`, { method: 'POST', body });
    await fetch(`${base}/ospView?api_key=${API_KEY}`, { method: 'POST', body: new URLSearchParams({ api_key: 'wrong-secret' }) });
  } finally {
    server.close();
  }
  const records = lines.map((l) => JSON.parse(l));
  expect(records.filter((r) => r.msg === 'request')).toEqual([
    expect.objectContaining({ method: 'POST', path: '/ospView', status: 200 }),
    expect.objectContaining({ method: 'POST', path: '/ospView', status: 200 }),
  ]);
  expect(lines.join('\n')).not.toContain(API_KEY);
  expect(lines.join('\n')).not.toContain('wrong-secret');
});
