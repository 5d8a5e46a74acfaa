// `npm run bench`, the tracker's part: the bundle's size, and in Debian's chromium the time to the
// numbers swapped (RingTrail.ready), from navigation start and from DOMContentLoaded, for a
// visitor's first page (new visit, script not cached) and next page (same visit, script cached).
import { buildTracker, BUDGET_GZIP_BYTES } from '../../tracker/build.ts';
import { launchChromium, visitorContext } from '../helpers/chromium.ts';
import { sitePage, startTestSite } from '../helpers/test-site.ts';
import { databaseLabel, startBenchCollector } from './bench-collector.ts';

const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 30);

const size = await buildTracker();
console.log(`tracker.js: ${size.bytes} bytes, ${size.gzipBytes} bytes gzipped (budget ${BUDGET_GZIP_BYTES})`);

const site = await startTestSite();
const bench = await startBenchCollector(
  {
    accounts: [{
      name: 'Bench',
      domains: [{
        name: 'bench.test',
        publicKey: 'pk-test-key',
        allowedOrigins: [site.origin],
        sitePhones: ['0123456789'],
        // Every request of the load comes from one address: no per-address limit.
        numbersPerAddress: 0,
        pools: [{ type: 1, usage: 'online', numbers: Array.from({ length: 4 * LOADS }, (_, i) => `0800${String(i).padStart(6, '0')}`) }],
      }],
    }],
  },
  'tracker',
);
site.collector = await bench.listen();
site.pages['/contact'] = sitePage('<p id="text">Call us: 01 23 45 67 89</p><p><a href="tel:0123456789">Call now</a></p>');

const browser = await launchChromium();
type Timing = { fromStart: number; fromDomReady: number };
const first: Timing[] = [];
const next: Timing[] = [];
for (let i = 0; i < LOADS; i++) {
  const context = await visitorContext(browser);
  const page = await context.newPage();
  for (const times of [first, next]) {
    await page.goto(`${site.origin}/contact`);
    await page.waitForFunction(() => 'RingTrail' in window);
    times.push(
      await page.evaluate(() =>
        (window as any).RingTrail.ready.then(() => {
          const swapped = performance.now();
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          return { fromStart: swapped, fromDomReady: swapped - nav.domContentLoadedEventStart };
        }),
      ),
    );
    if (!(await page.locator('#text').innerText()).includes('08 00')) throw new Error('the number was not swapped');
  }
  await context.close();
}
await browser.close();

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const line = (title: string, values: number[]) =>
  console.log(`${title.padEnd(58)} median ${quantile(values, 0.5).toFixed(0).padStart(4)} ms   p95 ${quantile(values, 0.95).toFixed(0).padStart(4)} ms`);
console.log(`swapped numbers, ${LOADS} visitors, chromium, database: ${databaseLabel()}`);
for (const [title, times] of [['first page (new visit, tracker.js not cached)', first], ['next page (same visit, tracker.js cached)', next]] as const) {
  line(`${title}, from navigation`, times.map((t) => t.fromStart));
  line(`${title}, from DOMContentLoaded`, times.map((t) => t.fromDomReady));
}

await bench.close();
await site.close();
