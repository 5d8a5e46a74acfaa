// Hole 3 of issue 52, as the attack: recording URLs that answer audio headers, then one byte every
// five seconds. Before the fix, each held a delivery slot indefinitely (only an idle timeout), eight
// of them stopped every mail and webhook, and a SIGTERM could not stop the process. Now a fetch has a
// total deadline and a pace, a host and the recordings hold only part of the slots, and a shutdown
// abandons what is under way (retried after the restart) and exits within its drain time.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { exitOf, startMain } from '../helpers/main-process.ts';
import { useMailedCollector } from '../helpers/mailed-collector.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';

const OWNER = { username: 'owner@shop.test', password: 'trickling source password' };
const SOURCES = 8;

interface Trickler {
  bases: string[];
  /** Connections open now, across every source. */
  open(): number;
  close(): Promise<void>;
}

/** `count` servers, each its own host (port): audio headers, then a byte every five seconds, for ever. */
async function startTricklers(count: number): Promise<Trickler> {
  const sockets = new Set<Socket>();
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.write('R');
        const drip = setInterval(() => res.write('I'), 5000);
        res.on('close', () => clearInterval(drip));
      });
      server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    }),
  );
  return {
    bases: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`),
    open: () => sockets.size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

describe('recording sources that trickle', () => {
  let tricklers: Trickler;
  beforeAll(async () => {
    tricklers = await startTricklers(SOURCES);
  });
  afterAll(() => tricklers?.close());
  // The defaults but for loopback sources and receivers, which this test needs.
  const m = useMailedCollector('trickling_source', trackingFixture({ users: [OWNER] }), { telephonyApiKey: TELEPHONY_KEY, delivery: { publicOnly: false } });

  it('never stop a test mail, and are cut off by their pace', async () => {
    // Two recordings from each source: sixteen slow fetches wanting the worker's eight slots.
    for (let i = 0; i < SOURCES * 2; i++) {
      const { status } = await reportCall(m.collector.baseUrl, { callRef: `trickle-${i}`, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 60, recordingUrl: `${tricklers.bases[i % SOURCES]}/rec-${i}.wav` });
      expect(status).toBe(200);
    }
    await expect.poll(() => tricklers.open()).toBeGreaterThanOrEqual(4);
    const owner = await signedInClient(m.collector.baseUrl, OWNER.username, OWNER.password);
    expect((await owner.call('POST', '/mail/test')).status).toBe(202);
    const [mail] = await m.inbox.received(1, 60_000);
    expect(mail!.subject).toBe('RingTrail test e-mail');
    // Recordings hold half the slots at most, whatever their number of hosts.
    expect(tricklers.open()).toBeLessThanOrEqual(4);
    // A source a byte every five seconds is cut off for being too slow (and retried later), not waited for.
    await expect.poll(async () => (await m.t.c.deliveryLog.findOne({ kind: 'recording', error: /came slower than/ }))?.outcome, { timeout: 30_000 }).toBe('retrying');
  }, 90_000);
});

describe('a SIGTERM while sources trickle', () => {
  let tricklers: Trickler;
  let dataDir: string;
  beforeAll(async () => {
    tricklers = await startTricklers(2);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-trickle-'));
  });
  afterAll(async () => {
    await tricklers?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits within its drain time, leaving the fetches in the outbox for the restart', async () => {
    const main = await startMain(dataDir, { TELEPHONY_API_KEY: TELEPHONY_KEY, ALLOW_PRIVATE_WEBHOOKS: 'true' });
    let exited = false;
    try {
      for (let i = 0; i < 4; i++) {
        const { status } = await reportCall(main.baseUrl, { callRef: `stop-${i}`, trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 60, recordingUrl: `${tricklers.bases[i % 2]}/rec-${i}.wav` });
        expect(status).toBe(200);
      }
      await expect.poll(() => tricklers.open()).toBeGreaterThanOrEqual(2);
      main.child.kill('SIGTERM');
      const code = await Promise.race([exitOf(main.child), new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000))]);
      exited = code !== 'still running';
      expect(code).toBe(0);
    } finally {
      if (!exited) main.child.kill('SIGKILL');
    }
    // Started again on the same data: the fetches abandoned at shutdown are still waiting to be made.
    const again = await startMain(dataDir, { TELEPHONY_API_KEY: TELEPHONY_KEY, ALLOW_PRIVATE_WEBHOOKS: 'true' });
    try {
      const client = await new MongoClient(again.databaseUri).connect();
      try {
        const waiting = await client.db('ringtrail').collection('outbox').countDocuments({ kind: 'recording' });
        expect(waiting).toBe(4);
      } finally {
        await client.close();
      }
    } finally {
      again.child.kill('SIGTERM');
      await exitOf(again.child);
    }
  }, 120_000);
});
