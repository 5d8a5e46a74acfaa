// A real collector over real HTTP, on a database of the test file's own.
import type { AddressInfo } from 'node:net';
import http, { type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp, type AppOptions } from '../../collector/src/app.ts';
import { fixtureSchema, type Fixture } from '../../collector/src/cli/fixture.ts';
import { seedFixture } from '../../collector/src/cli/seed-service.ts';
import { allCollections, ensureIndexes, type AllCollections } from '../../collector/src/house/all-collections.ts';
import { createLogger } from '../../collector/src/logger.ts';

export interface TestDatabase {
  db: Db;
  c: AllCollections;
  client: MongoClient;
  close(): Promise<void>;
}

/** A fresh database on the run's server; dropped on close. */
export async function testDatabase(label: string): Promise<TestDatabase> {
  const client = await new MongoClient(inject('mongodbUri')).connect();
  const db = client.db(`t_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`);
  const c = allCollections(db);
  await ensureIndexes(c);
  return {
    db,
    c,
    client,
    async close() {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}

export async function seed(c: AllCollections, fixture: unknown): Promise<void> {
  await seedFixture(c, fixtureSchema.parse(fixture) as Fixture);
}

export interface RunningCollector {
  baseUrl: string;
  server: Server;
  /** POSTs form fields, leaving out undefined ones (or JSON when `json` is set), and returns the HTTP status and parsed body. */
  post(path: string, fields: Record<string, unknown>, opts?: { json?: boolean }): Promise<{ status: number; body: any }>;
  /** GETs with a query string (a string as is, or fields, leaving out undefined ones); returns the HTTP status and parsed body. */
  get(path: string, query?: string | Record<string, unknown>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** Form or query fields, leaving out undefined ones. */
export function formFields(fields: Record<string, unknown>): URLSearchParams {
  return new URLSearchParams(Object.entries(fields).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
}

export async function startCollector(db: Db, opts: Omit<AppOptions, 'db' | 'log'> = {}): Promise<RunningCollector> {
  // Listening first, as main.ts does: without PUBLIC_URL the app's links name where it listens.
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { app, stop } = createApp({ db, log: createLogger(process.env.TEST_LOG ?? 'silent'), listenUrl: baseUrl, ...opts });
  server.on('request', app.callback());
  return {
    baseUrl,
    server,
    async post(path, fields, { json = false } = {}) {
      const res = await fetch(baseUrl + path, {
        method: 'POST',
        headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
        body: json ? JSON.stringify(fields) : formFields(fields),
      });
      return { status: res.status, body: await res.json() };
    },
    async get(path, query = '') {
      const search = typeof query === 'string' ? query : formFields(query).toString();
      const res = await fetch(`${baseUrl}${path}${search ? `?${search}` : ''}`);
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await stop();
    },
  };
}

export interface SeededCollector {
  t: TestDatabase;
  collector: RunningCollector;
}

/** Registers the hooks of a test file: its own database seeded with `fixture`, and a collector on it. */
export function useSeededCollector(label: string, fixture: unknown, opts: Omit<AppOptions, 'db' | 'log'> = {}): SeededCollector {
  const suite = {} as SeededCollector;
  beforeAll(async () => {
    suite.t = await testDatabase(label);
    await seed(suite.t.c, fixture);
    suite.collector = await startCollector(suite.t.db, opts);
  });
  afterAll(async () => {
    await suite.collector?.close();
    await suite.t?.close();
  });
  return suite;
}
