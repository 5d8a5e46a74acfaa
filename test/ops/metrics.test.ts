// GET /metrics: behind its bearer key, in the Prometheus text format, with the requests, WARNING
// reasons, pools, outbox, deliveries and database latency it promises.
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { trackingFixture, viewParams } from '../helpers/fixtures.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

const KEY = 'metrics-test-key-0123';
let t: TestDatabase;
let monitored: MongoClient;
let collector: RunningCollector;
let receiver: Receiver;

beforeAll(async () => {
  t = await testDatabase('metrics');
  await seed(t.c, trackingFixture({ exclusive: ['0800000001'] }));
  // The collector's own connection monitors its commands (db/connect.ts): so does this one.
  monitored = await new MongoClient(inject('mongodbUri'), { monitorCommands: true }).connect();
  collector = await startCollector(monitored.db(t.db.databaseName), { metricsKey: KEY, delivery: { publicOnly: false, pollMs: 50 } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await collector?.close();
  await receiver?.close();
  await monitored?.close();
  await t?.close();
});

const scrape = async (authorization?: string) => {
  const res = await fetch(`${collector.baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

/** The value of one series: `name{label="v",...} 3`. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `) ? Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)) : false);
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('/metrics', () => {
  it('needs its bearer key, and is off without one', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('Bearer wrong-key-wrong-key')).status).toBe(401);
    const off = await startCollector(t.db, { delivery: { run: false } });
    try {
      expect((await fetch(`${off.baseUrl}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('counts requests by route, WARNINGs by reason, pools, the outbox, deliveries and database commands', async () => {
    expect((await collector.post('/ospView', viewParams())).body.status).toBe('OK');
    expect((await collector.post('/ospView', viewParams({ ip: '198.51.100.9' }))).body.status).toBe('WARNING'); // one number only
    await new Outbox(t.c).enqueue({ accountId: 'Test account', stream: 'metrics', kind: 'analytics', label: 'purchase', url: receiver.url(), contentType: 'application/json', body: '{}', signed: false });
    await receiver.waitFor(1);

    const { status, type, text } = await scrape(`Bearer ${KEY}`);
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(valueOf(text, 'http_requests_total', { route: '/ospView', method: 'POST', status: '200' })).toBe(2);
    expect(valueOf(text, 'http_request_duration_seconds_count', { route: '/ospView', status: '200' })).toBe(2);
    expect(valueOf(text, 'ringtrail_warnings_total', { reason: 'pool_exhausted' })).toBe(1);
    expect(valueOf(text, 'ringtrail_pool_numbers', { domain: 'shop.test', type: '1' })).toBe(1);
    expect(valueOf(text, 'ringtrail_pool_held', { domain: 'shop.test', type: '1' })).toBe(1);
    await expect.poll(async () => valueOf((await scrape(`Bearer ${KEY}`)).text, 'ringtrail_deliveries_total', { kind: 'analytics', outcome: 'delivered' })).toBe(1);
    expect(valueOf(text, 'ringtrail_outbox_messages')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('ringtrail_outbox_oldest_age_seconds');
    expect(valueOf(text, 'ringtrail_db_command_duration_seconds_count', { command: 'findAndModify', outcome: 'ok' })).toBeGreaterThan(0);
    expect(text).toContain('process_cpu_seconds_total');
  });
});
