// Debian's chromium driven by playwright-core (Playwright's own browser download cannot run here).
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

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
