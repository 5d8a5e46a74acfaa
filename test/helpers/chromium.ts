// Debian's chromium driven by playwright-core (Playwright's own browser download cannot run here).
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import path from 'node:path';

/** Where tests leave their screenshots and reports. */
export const ARTIFACTS = path.resolve('test-artifacts');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The user agent of a desktop Chrome: headless Chromium's own says "HeadlessChrome", which is a robot's. */
export const DESKTOP_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // A driven browser sets navigator.webdriver, which the tracker (rightly) takes for a robot.
      '--disable-blink-features=AutomationControlled',
    ],
  });
}

export function visitorContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ userAgent: DESKTOP_CHROME, viewport: { width: 900, height: 600 } });
}

/** A suite's browser and one desktop page (1200 × 900), launched before its tests and closed after
 * them; the artifacts folder made for its screenshots. Read `.page` and `.browser` inside the tests. */
export function useDesktopPage(): { browser: Browser; page: Page } {
  const held = {} as { browser: Browser; page: Page };
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    held.browser = await launchChromium();
    held.page = await (await held.browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
  });
  afterAll(() => held.browser?.close());
  return held;
}
