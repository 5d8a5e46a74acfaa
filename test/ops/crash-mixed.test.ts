// Crash safety under a mixed load: views, calls, an agent picking up each call, carts and orders,
// each call's cart and order changes pushed to the account's webhook. The collector and its
// database are killed with SIGKILL mid-load and started again on the same data: every acknowledged
// write is there once, no id is handed out twice, and every push queued before the crash (the
// receiver refused them all until then) arrives after it, in order per call (at least once: a
// repeat carries the same webhook-id).
//
// A request in flight at the kill may or may not have been committed: its write may be there (at
// most once), and its push may follow the acknowledged ones. Only acknowledged steps are owed.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { localTime } from '../../collector/src/domains/time-zone.ts';
import { exitOf, startMain } from '../helpers/main-process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { until } from '../helpers/until.ts';

const TELEPHONY_API_KEY = 'crash-test-telephony-key';
// An offline number: its calls are tied to no visit, so each call's pushes are its own story's only
// (a call to an online number goes to whichever visit held the number, and so do its pushes).
const NUMBER = '0100000001';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-crash-mixed-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Story {
  caller: string;
  viewId?: number;
  visitId?: number;
  callId?: number;
  /** The pushes its acknowledged steps queued, in order: `cart`, `order:pending`, `order:paid`. */
  pushes: string[];
  /** The step sent and not acknowledged when the collector died (`view`, `call`, ..., `order:paid`), if any. */
  inFlight?: string;
  cartId?: string;
  orderId?: string;
}

const form = (fields: Record<string, string | number>) => new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]));

/** One caller's story, step by step, until a step is not acknowledged (the collector is gone). */
async function story(base: string, i: number, stories: Story[]): Promise<void> {
  const s: Story = { caller: `06${String(10_000_000 + i)}`, pushes: [] };
  stories.push(s);
  const post = async (p: string, body: URLSearchParams | object) => {
    const json = !(body instanceof URLSearchParams);
    const res = await fetch(`${base}${p}`, {
      method: 'POST',
      headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...(p.startsWith('/telephony') ? { authorization: `Bearer ${TELEPHONY_API_KEY}` } : {}) },
      body: json ? JSON.stringify(body) : body,
    });
    return { status: res.status, body: await res.json() };
  };
  s.inFlight = 'view';
  const view = await post('/ospView', form({ api_key: 'track-acme-demo', visit_id: 0, ip: '203.0.113.9', url: 'https://acme.example/', page_title: 'Home', is_mobile: 'false', referer_url: '', nr_phones: 1, direct_display: 'true', phones: '0123456789', expiration: 0 }));
  if (view.body.status !== 'OK') throw new Error(`view: ${JSON.stringify(view.body)}`);
  Object.assign(s, { viewId: view.body.viewId, visitId: view.body.visitId });
  const startedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
  s.inFlight = 'call';
  const call = await post('/telephony/calls', { callRef: `mixed-${i}`, trackingNumber: NUMBER, callerPhone: s.caller, startDate: startedAt.toISOString().slice(0, 19).replace('T', ' '), status: 'SUCCESS', duration: 20 });
  if (call.status !== 200) throw new Error(`call: ${JSON.stringify(call.body)}`);
  s.callId = call.body.callId;
  const wall = localTime(startedAt, 'Europe/Paris');
  s.inFlight = 'callStart';
  const picked = await post('/agent-api/callStart', form({ apiKey: 'cc-acme-demo', destinationPhone: NUMBER, callerPhone: s.caller, startDate: `${wall.day} ${wall.time}`, agent: `agent-${i % 3}` }));
  if (picked.body.status !== 'OK' || picked.body.resultsNb !== 1) throw new Error(`callStart: ${JSON.stringify(picked.body)}`);
  const product = { 'products[0][id]': 'SKU-1', 'products[0][name]': 'Boiler', 'products[0][quantity]': 1, 'products[0][price]': '99.00' };
  s.inFlight = 'cart';
  const cart = await post('/api/customer-cart', form({ key: 'customer-acme-demo', id: `cart-${i}`, currency: 'EUR', visit_id: s.visitId!, is_logged_in: 0, call_id: s.callId!, ...product }));
  if (cart.body.status !== 'success') throw new Error(`cart: ${JSON.stringify(cart.body)}`);
  s.cartId = `cart-${i}`;
  s.pushes.push('cart');
  for (const status of ['pending', 'paid']) {
    s.inFlight = `order:${status}`;
    const order = await post('/api/customer-order', form({ key: 'customer-acme-demo', id: `order-${i}`, cart_id: `cart-${i}`, currency: 'EUR', visit_id: s.visitId!, call_id: s.callId!, status, ...product }));
    if (order.body.status !== 'success') throw new Error(`order: ${JSON.stringify(order.body)}`);
    s.orderId = `order-${i}`;
    s.pushes.push(`order:${status}`);
  }
  s.inFlight = undefined;
}


describe('a collector killed under a mixed load', () => {
  it('keeps every acknowledged write and delivers every queued push, in order per call', async () => {
    const receiver = await startReceiver();
    const env = { TELEPHONY_API_KEY, ALLOW_PRIVATE_WEBHOOKS: 'true' };
    const first = await startMain(dataDir, env, { detached: true });
    const admin = await new MongoClient(first.databaseUri).connect();
    await admin.db('ringtrail').collection('accounts').updateOne({ _id: 'Acme' as never }, { $set: { webhookUrl: receiver.url() } });
    const viewsBefore = await admin.db('ringtrail').collection('views').countDocuments();
    await admin.close();

    // The receiver refuses (503) everything until after the restart: every push is still queued, or
    // waiting for its retry, when the collector dies.
    receiver.down = true;
    const stories: Story[] = [];
    let next = 0;
    let killed = false;
    const errors: string[] = [];
    const worker = async () => {
      for (;;) {
        try {
          await story(first.baseUrl, next++, stories);
        } catch (err) {
          // Once the collector is killed, whatever a request got (fetch failed, or a database
          // error from a collector a moment slower to die) is simply not acknowledged.
          if (!killed) errors.push((err as Error).message);
          return;
        }
      }
    };
    const load = Promise.all(Array.from({ length: 4 }, worker));
    // Mid-load: once enough stories are whole (their three pushes queued) and others are on their way.
    await until(() => errors.length > 0 || stories.filter((s) => s.pushes.length === 3).length >= 6, 'six whole stories');
    expect(errors).toEqual([]);
    killed = true;
    process.kill(-first.child.pid!, 'SIGKILL'); // collector and database, as a power cut would
    await load;
    await exitOf(first.child);
    expect(errors).toEqual([]);

    expect(receiver.received).toEqual([]);
    receiver.down = false;
    const second = await startMain(dataDir, env);
    const client = await new MongoClient(second.databaseUri).connect();
    try {
      const db = client.db('ringtrail');
      const acked = <K extends keyof Story>(key: K) => stories.flatMap((s) => (s[key] === undefined ? [] : [s[key] as NonNullable<Story[K]>]));
      for (const key of ['viewId', 'visitId', 'callId'] as const) expect(new Set(acked(key)).size).toBe(acked(key).length);
      // Every acknowledged write is stored, once; a write in flight at the kill at most once.
      const lost = (step: string) => stories.filter((s) => s.inFlight === step).length;
      const views = await db.collection('views').countDocuments();
      expect(await db.collection<{ _id: number }>('views').countDocuments({ _id: { $in: acked('viewId') } })).toBe(acked('viewId').length);
      expect(views - viewsBefore).toBeGreaterThanOrEqual(acked('viewId').length);
      expect(views - viewsBefore).toBeLessThanOrEqual(acked('viewId').length + lost('view'));
      const perStory = async (name: string, field: string, value: (i: number) => string) => {
        const counts = new Map<string, number>();
        const docs = await db.collection(name).find({ [field]: { $in: stories.map((_, i) => value(i)) } }, { projection: { [field]: 1 } }).toArray();
        for (const d of docs) counts.set(d[field], (counts.get(d[field]) ?? 0) + 1);
        return (i: number) => counts.get(value(i)) ?? 0;
      };
      const calls = await perStory('calls', 'callRef', (i) => `mixed-${i}`);
      const carts = await perStory('carts', 'externalId', (i) => `cart-${i}`);
      const orders = await perStory('orders', 'externalId', (i) => `order-${i}`);
      /** Acknowledged: there once. In flight: there once or not at all. Never sent: not there. */
      const allowed = (ackedIt: boolean, inFlight: boolean, stored: number) => (ackedIt ? 1 : inFlight ? Math.min(stored, 1) : 0);
      stories.forEach((s, i) => {
        expect([i, calls(i)]).toEqual([i, allowed(s.callId !== undefined, s.inFlight === 'call', calls(i))]);
        expect([i, carts(i)]).toEqual([i, allowed(s.cartId !== undefined, s.inFlight === 'cart', carts(i))]);
        expect([i, orders(i)]).toEqual([i, allowed(s.orderId !== undefined, s.inFlight === 'order:pending', orders(i))]);
      });
      const paid = stories.filter((s) => s.pushes.includes('order:paid')).map((s) => s.orderId);
      expect(await db.collection('orders').countDocuments({ externalId: { $in: paid }, status: 'paid' })).toBe(paid.length);

      // Every push queued before the crash arrives after the restart, in order per call.
      await expect.poll(() => db.collection('outbox').countDocuments(), { timeout: 60_000, interval: 200 }).toBe(0);
      const byCall = new Map<number, { id: string; what: string }[]>();
      const bodyOf = new Map<string, string>();
      for (const r of receiver.received) {
        const id = String(r.headers['webhook-id']);
        expect(bodyOf.get(id) ?? r.body).toBe(r.body); // a repeat is the same message
        bodyOf.set(id, r.body);
        const data = JSON.parse(new URLSearchParams(r.body).get('realtimeData')!);
        const what = data.type === 'order' ? `order:${data.order.status}` : data.type;
        const seen = byCall.get(data.callId) ?? byCall.set(data.callId, []).get(data.callId)!;
        if (!seen.some((m) => m.id === id)) seen.push({ id, what });
      }
      // Pushes only for acknowledged calls (a call in flight had no cart or order yet).
      expect([...byCall.keys()].filter((id) => !acked('callId').includes(id))).toEqual([]);
      const PUSHED = ['cart', 'order:pending', 'order:paid'];
      for (const s of stories.filter((s) => s.callId !== undefined)) {
        const got = (byCall.get(s.callId!) ?? []).map((m) => m.what);
        // The step in flight at the kill may have queued its push too: then it comes last.
        const owed = s.inFlight && PUSHED.includes(s.inFlight) && got.length === s.pushes.length + 1 ? [...s.pushes, s.inFlight] : s.pushes;
        expect([s.callId, got]).toEqual([s.callId, owed]);
      }
      const repeats = receiver.received.length - bodyOf.size;
      const inFlight = stories.flatMap((s) => (s.inFlight ? [s.inFlight] : []));
      console.log(`mixed crash: ${stories.length} stories, ${acked('viewId').length} views, ${acked('callId').length} calls, ${acked('cartId').length} carts, ${acked('orderId').length} orders acknowledged; in flight at the kill: ${inFlight.join(', ') || 'nothing'}; ${bodyOf.size} pushes delivered (${repeats} repeated after the crash)`);
    } finally {
      await client.close();
      second.child.kill('SIGTERM');
      await exitOf(second.child);
      await receiver.close();
    }
  }, 180_000);
});
