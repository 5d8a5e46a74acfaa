// The hooks of a browser test file: a site on its own loopback origin, a collector on a database of
// the file's own (seeded with `fixture` when given), and Chromium.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { AppOptions } from '../../collector/src/app.ts';
import { launchChromium } from './chromium.ts';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from './collector.ts';
import { startTestSite, type TestSite } from './test-site.ts';

export { ARTIFACTS } from './chromium.ts';
import { ARTIFACTS } from './chromium.ts';

export interface BrowserSite {
  site: TestSite;
  t: TestDatabase;
  collector: RunningCollector;
  browser: Browser;
}

/** `fixture` may use the site's origin (its allowed origin): it is a function of it. */
export function useBrowserSite(label: string, fixture: ((origin: string) => unknown) | null, opts: Omit<AppOptions, 'db' | 'log'> = {}): BrowserSite {
  const b = {} as BrowserSite;
  beforeAll(async () => {
    b.site = await startTestSite();
    b.t = await testDatabase(label);
    if (fixture) await seed(b.t.c, fixture(b.site.origin));
    b.collector = await startCollector(b.t.db, opts);
    b.site.collector = b.collector.baseUrl;
    b.browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await b.browser?.close();
    await b.collector?.close();
    await b.site?.close();
    await b.t?.close();
  });
  return b;
}
