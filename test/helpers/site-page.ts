// A site's page in jsdom that loads the real tracker.js from a running collector with a script
// tag, as a browser would: jsdom fetches the script, runs it, and its XMLHttpRequest sends the
// page's Origin and enforces CORS.
import { JSDOM, ResourceLoader, VirtualConsole } from 'jsdom';

export const CHROME_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
export const SITE_ORIGIN = 'http://shop.test';

export interface SitePage {
  dom: JSDOM;
  window: JSDOM['window'];
  document: Document;
  /** Whatever the page's console or jsdom reported as an error: a tracker must add nothing. */
  errors: string[];
  /** Resolves once tracker.js has run and its first view is done. */
  ready(): Promise<void>;
  text(selector?: string): string;
  close(): void;
}

export interface PageOptions {
  /** The collector's base URL, or where tracker.js is loaded from. */
  collector: string;
  body: string;
  /** data-* attributes of the script tag, data-key included. */
  attributes?: Record<string, string>;
  url?: string;
  userAgent?: string;
  /** Cookies already in the browser, from an earlier page. */
  cookieJar?: JSDOM['cookieJar'];
  beforeParse?: (window: JSDOM['window']) => void;
}

export async function openPage(o: PageOptions): Promise<SitePage> {
  const errors: string[] = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on('error', (e) => errors.push(String(e)));
  // jsdom reports a followed link (a tel: link dialling) as "Not implemented: navigation": not an error.
  virtualConsole.on('jsdomError', (e) => e.message.startsWith('Not implemented: navigation') || errors.push(e.message));
  const attributes = Object.entries({ key: 'pk-test-key', ...o.attributes })
    .map(([name, value]) => ` data-${name}="${value}"`)
    .join('');
  const dom = new JSDOM(`<!doctype html><html><head><title>Contact</title><script async src="${o.collector}/tracker.js"${attributes}></script></head><body>${o.body}</body></html>`, {
    url: o.url ?? `${SITE_ORIGIN}/contact`,
    runScripts: 'dangerously',
    resources: new ResourceLoader({ userAgent: o.userAgent ?? CHROME_AGENT }),
    pretendToBeVisual: true,
    virtualConsole,
    ...(o.cookieJar ? { cookieJar: o.cookieJar } : {}),
    ...(o.beforeParse ? { beforeParse: o.beforeParse } : {}),
  });
  const window = dom.window;
  return {
    dom,
    window,
    document: window.document,
    errors,
    async ready() {
      const deadline = Date.now() + 10_000;
      while (!(window as any).RingTrail) {
        if (Date.now() > deadline) throw new Error(`tracker.js did not run: ${errors.join('; ')}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      await (window as any).RingTrail.ready;
    },
    text(selector = 'body') {
      return window.document.querySelector(selector)!.textContent!.replace(/\s+/g, ' ').trim();
    },
    close: () => window.close(),
  };
}

/** Lets the page's own timers and mutation observers run. */
export function settle(ms = 50): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A browser door's request as tracker.js sends it: form fields as text/plain, from a page of `origin`. */
export function browserPost(baseUrl: string, path: string, fields: Record<string, string | number>, origin = 'https://shop.test', ip?: string): Promise<Response> {
  // `ip`: the visitor's address, as a trusted proxy says it (X-Forwarded-For).
  return fetch(`${baseUrl}${path}`, { method: 'POST', headers: { origin, 'user-agent': CHROME_AGENT, 'content-type': 'text/plain;charset=UTF-8', ...(ip ? { 'x-forwarded-for': ip } : {}) }, body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString() });
}
