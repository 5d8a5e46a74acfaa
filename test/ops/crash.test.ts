// Durability: a collector under a write load is killed with SIGKILL, with or without its embedded
// database, and started again on the same data: every write it acknowledged is there, and no id
// it handed out is handed out again.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { answers, exitOf, startMain, type Started } from '../helpers/main-process.ts';
import { until } from '../helpers/until.ts';

const TELEPHONY_API_KEY = 'crash-test-telephony-key';
const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function freshDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-crash-'));
  dataDirs.push(dir);
  return dir;
}

/** A first view of a new visit, its number released at once so the demo pool never runs dry. */
const VIEW = {
  api_key: 'track-acme-demo', visit_id: '0', ip: '203.0.113.9', url: 'https://acme.example/contact', page_title: 'Contact',
  is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789', expiration: '0',
};

interface Acknowledged {
  viewIds: number[];
  visitIds: number[];
  callIds: number[];
}

/**
 * Views and call reports from `workers` loops until the collector stops answering: `acked` grows as
 * it acknowledges them, `done` resolves when every loop has stopped.
 */
function writeLoad(baseUrl: string, workers: number, prefix: string): { acked: Acknowledged; done: Promise<void> } {
  const acked: Acknowledged = { viewIds: [], visitIds: [], callIds: [] };
  const view = new URLSearchParams(VIEW);
  let n = 0;
  const loop = async () => {
    for (;;) {
      const i = n++;
      try {
        if (i % 3 === 2) {
          const res = await fetch(`${baseUrl}/telephony/calls`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TELEPHONY_API_KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify({ callRef: `${prefix}-${i}`, trackingNumber: '0100000001', callerPhone: '0611223344', startDate: '2026-03-01 10:00:00', status: 'SUCCESS', duration: 30, answerTime: 2 }),
          });
          const body = await res.json();
          if (res.status === 200) acked.callIds.push(body.callId);
        } else {
          const body = await (await fetch(`${baseUrl}/ospView`, { method: 'POST', body: view })).json();
          if (body.viewId) {
            acked.viewIds.push(body.viewId);
            acked.visitIds.push(body.visitId);
          }
        }
      } catch {
        return; // the collector is gone
      }
    }
  };
  return { acked, done: Promise.all(Array.from({ length: workers }, loop)).then(() => {}) };
}

/** Mid-load: once the collector has acknowledged at least this many views and calls. */
const acknowledged = ({ acked }: { acked: Acknowledged }, views: number, calls: number) =>
  until(() => acked.viewIds.length >= views && acked.callIds.length >= calls, `${views} views and ${calls} calls acknowledged`);

/** Every acknowledged write is in the database, once. */
async function expectAllStored(uri: string, acked: Acknowledged): Promise<void> {
  const client = await new MongoClient(uri).connect();
  try {
    const db = client.db('ringtrail');
    const count = (name: string, ids: number[]) => db.collection<{ _id: number }>(name).countDocuments({ _id: { $in: ids } });
    expect(await count('views', acked.viewIds)).toBe(acked.viewIds.length);
    expect(await count('visits', acked.visitIds)).toBe(new Set(acked.visitIds).size);
    expect(await count('calls', acked.callIds)).toBe(acked.callIds.length);
  } finally {
    await client.close();
  }
}

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  await exitOf(started.child);
}

describe('a collector killed under load', () => {
  it('keeps every acknowledged write when it and its database die at once, and hands out no id twice', async () => {
    const dataDir = freshDataDir();
    const env = { TELEPHONY_API_KEY };
    const first = await startMain(dataDir, env, { detached: true });
    const load = writeLoad(first.baseUrl, 8, 'a');
    await acknowledged(load, 21, 6);
    process.kill(-first.child.pid!, 'SIGKILL'); // the collector and its database, as a power cut would
    await load.done;
    const { acked } = load;
    expect(new Set(acked.viewIds).size).toBe(acked.viewIds.length);

    const second = await startMain(dataDir, env);
    try {
      await expectAllStored(second.databaseUri, acked);
      const next = await (await fetch(`${second.baseUrl}/ospView`, { method: 'POST', body: new URLSearchParams(VIEW) })).json();
      expect(next.status).toBe('OK');
      expect(acked.viewIds).not.toContain(next.viewId);
      expect(acked.visitIds).not.toContain(next.visitId);
    } finally {
      await stop(second);
    }
  }, 120_000);

  it('takes its database with it when killed alone, and the next start has every acknowledged write', async () => {
    const dataDir = freshDataDir();
    const env = { TELEPHONY_API_KEY };
    const first = await startMain(dataDir, env);
    const load = writeLoad(first.baseUrl, 4, 'c');
    await acknowledged(load, 10, 3);
    first.child.kill('SIGKILL');
    await load.done;
    const { acked } = load;
    // Its database does not outlive it (a parent-death signal), so nothing holds the data directory.
    await until(async () => !(await answers(first.databaseUri)), 'the database of the killed collector to stop');

    const second = await startMain(dataDir, env);
    try {
      await expectAllStored(second.databaseUri, acked);
    } finally {
      await stop(second);
    }
  }, 120_000);
});
