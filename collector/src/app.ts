// Builds the Koa app from a database handle. No listen: main.ts and the tests do that.
import Koa from 'koa';
import type { Db } from 'mongodb';
import { collections, type Collections } from './db/collections.ts';
import { IdAllocator } from './db/ids.ts';
import { healthRoutes } from './http/health.ts';
import { requestLog } from './http/request-log.ts';
import type { Logger } from './logger.ts';
import { trackingRoutes } from './tracking/routes.ts';
import { TrackingService } from './tracking/service.ts';

export interface AppOptions {
  db: Db;
  log: Logger;
  /** Take the client ip from X-Forwarded-For (only behind a proxy you run). */
  trustProxy?: boolean;
}

export interface CollectorApp {
  app: Koa;
  collections: Collections;
}

export function createApp({ db, log, trustProxy = false }: AppOptions): CollectorApp {
  const app = new Koa({ proxy: trustProxy });
  const c = collections(db);
  const ids = new IdAllocator(c.idBlocks);
  app.silent = true; // errors are answered and logged by each family's envelope
  app.use(requestLog(log));
  for (const router of [healthRoutes(db), trackingRoutes(c, new TrackingService(c, ids), log)]) {
    app.use(router.routes()).use(router.allowedMethods());
  }
  return { app, collections: c };
}
