// Builds the Koa app from a database handle. No listen: main.ts and the tests do that.
import Koa from 'koa';
import type { Db } from 'mongodb';
import { trackerBundlePath } from '../../tracker/bundle-path.ts';
import { demoRoutes } from './browser/demo.ts';
import { BrowserRateLimit, DEFAULT_BROWSER_LIMITS, type BrowserLimits } from './browser/rate-limit.ts';
import { browserRoutes } from './browser/routes.ts';
import { trackerScriptRoutes } from './browser/tracker-script.ts';
import { collections, type Collections } from './db/collections.ts';
import { IdAllocator } from './db/ids.ts';
import { healthRoutes } from './http/health.ts';
import { requestLog } from './http/request-log.ts';
import type { Logger } from './logger.ts';
import { offlineRoutes } from './offline/routes.ts';
import { OfflineNumbers } from './offline/service.ts';
import { trackingRoutes } from './tracking/routes.ts';
import { TrackingService } from './tracking/service.ts';

export interface AppOptions {
  db: Db;
  log: Logger;
  /** Take the client ip from X-Forwarded-For (only behind a proxy you run). */
  trustProxy?: boolean;
  /** Rate limits of the browser doors (/t/*). */
  browserLimits?: BrowserLimits;
  /** Serve the demo site under /demo/. */
  demoPages?: boolean;
}

export interface CollectorApp {
  app: Koa;
  collections: Collections;
}

export function createApp({ db, log, trustProxy = false, browserLimits = DEFAULT_BROWSER_LIMITS, demoPages = false }: AppOptions): CollectorApp {
  const app = new Koa({ proxy: trustProxy });
  const c = collections(db);
  const tracking = new TrackingService(c, new IdAllocator(c.idBlocks));
  const offline = new OfflineNumbers(c);
  app.silent = true; // errors are answered and logged by each family's envelope
  app.use(requestLog(log));
  const routers = [
    healthRoutes(db),
    trackingRoutes(c, tracking, log),
    browserRoutes(c, tracking, new BrowserRateLimit(browserLimits), log),
    trackerScriptRoutes(trackerBundlePath),
    offlineRoutes(c, offline, log),
    ...(demoPages ? [demoRoutes()] : []),
  ];
  for (const router of routers) {
    app.use(router.routes()).use(router.allowedMethods());
  }
  return { app, collections: c };
}
