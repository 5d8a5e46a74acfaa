// The demo as a newcomer meets it: `npm start` on a port of their choosing (any but the fixture's
// 8080), the demo page opened by either loopback name, its numbers swapped.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../helpers/browser-site.ts';
import { launchChromium, visitorContext } from '../helpers/chromium.ts';
import { exitOf, startMain } from '../helpers/main-process.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the demo on any port', () => {
  it('swaps the demo page’s numbers whether it is opened as localhost or 127.0.0.1', async () => {
    const started = await startMain(dataDir, {});
    const browser = await launchChromium();
    try {
      const port = new URL(started.baseUrl).port;
      expect(port).not.toBe('8080');
      for (const host of ['localhost', '127.0.0.1']) {
        const page = await (await visitorContext(browser)).newPage();
        await page.goto(`http://${host}:${port}/demo/`);
        // The page's own number, 01 23 45 67 89, becomes a tracking number of the demo pool (08...).
        await page.getByText(/Call us: 08 00 00 \d\d \d\d/).waitFor();
        if (host === 'localhost') await page.screenshot({ path: path.join(ARTIFACTS, 'demo-any-port.png') });
        await page.context().close();
      }
    } finally {
      await browser.close();
      started.child.kill('SIGTERM');
      await exitOf(started.child);
    }
  }, 90_000);
});
