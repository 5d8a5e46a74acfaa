// The watch that fails requests at once while the database does not answer (db/stall-watch.ts):
// a request under way fails as soon as a command times out, and a request that finished leaves
// nothing behind. The database is the run's own, reached through a TCP relay of the test's that
// can stop passing the database's answers on: a stall as the driver sees one, on any MongoDB.
import dns from 'node:dns/promises';
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DatabaseStalled, DatabaseStallWatch } from '../../collector/src/db/stall-watch.ts';
import { createLogger } from '../../collector/src/logger.ts';

/** A relay to the database's address; `hold()` keeps the database's answers from the client. */
async function relay(target: { host: string; port: number }) {
  let holding = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk) => holding || client.write(chunk));
    for (const s of [client, upstream]) s.on('error', () => client.destroy() && upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    hold: () => (holding = true),
    release: () => (holding = false),
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the database stall watch', () => {
  let db: Awaited<ReturnType<typeof relay>>;
  let client: MongoClient;
  let watch: DatabaseStallWatch;
  beforeAll(async () => {
    // Any MONGODB_URI: the relay goes to its first host, and the client keeps its credentials and
    // options, connecting straight to that host through the relay.
    const runUri = inject('mongodbUri');
    const parsed = new MongoClient(runUri).options;
    const first = parsed.srvHost ? (await dns.resolveSrv(`_mongodb._tcp.${parsed.srvHost}`))[0]! : { name: parsed.hosts[0]!.host!, port: parsed.hosts[0]!.port! };
    db = await relay({ host: first.name, port: first.port });
    const [, credentials = '', rest = ''] = /^mongodb(?:\+srv)?:\/\/([^@/]*@)?[^/?]*(.*)$/.exec(runUri)!;
    const uri = new URL(`mongodb://${credentials}127.0.0.1:${db.port}${rest.startsWith('/') || rest === '' ? rest : `/${rest}`}`);
    uri.searchParams.set('directConnection', 'true');
    if (parsed.tls) uri.searchParams.set('tlsAllowInvalidHostnames', 'true');
    client = await new MongoClient(uri.toString(), { tls: parsed.tls, monitorCommands: true, socketTimeoutMS: 500, serverSelectionTimeoutMS: 2000 }).connect();
    watch = new DatabaseStallWatch(client, createLogger('silent'));
  });
  afterAll(async () => {
    watch.stop();
    await client.close(true);
    await db.close();
  });

  it('holds nothing for the requests that finished, however many', async () => {
    // A promise shared by every request and raced against each kept about 440 bytes a request
    // until the next stall: 22 MB for these 50,000, measured.
    const forceGc = () => {
      v8.setFlagsFromString('--expose-gc');
      (vm.runInNewContext('gc') as () => void)();
    };
    forceGc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 50_000; i++) {
      const work = Promise.resolve({ request: i, body: 'x'.repeat(16) });
      await watch.guard(i % 10 === 0 ? work.then(() => Promise.reject(new Error('refused'))) : work).catch(() => undefined);
    }
    forceGc();
    expect(watch.guarded).toBe(0);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(3_000_000);
  });

  it('fails a request under way as soon as a command times out, and new ones until the database answers', async () => {
    expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    const underWay = watch.guard(new Promise(() => {})); // a request waiting on the database
    expect(watch.guarded).toBe(1);
    db.hold();
    const ping = client.db('admin').command({ ping: 1 }).catch((err: unknown) => err);
    await expect(underWay).rejects.toBeInstanceOf(DatabaseStalled);
    expect(watch.stalled).toBe(true);
    expect(watch.guarded).toBe(0);
    expect(await ping).toBeInstanceOf(Error);
    db.release();
    // Any command that succeeds ends the stall (the watch pings every half second to find one).
    await expect.poll(() => watch.stalled, { timeout: 10_000 }).toBe(false);
    expect(await watch.guard(Promise.resolve('answered'))).toBe('answered');
  });
});
