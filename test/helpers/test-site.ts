// A site on its own loopback origin whose pages load tracker.js from the collector's origin.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestSite {
  origin: string;
  /** Pages by path; `{{collector}}` is replaced by the collector's base URL at each request. */
  pages: Record<string, string>;
  collector: string;
  close(): Promise<void>;
}

export async function startTestSite(): Promise<TestSite> {
  const site = { pages: {}, collector: '' } as TestSite;
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url!, 'http://x').pathname;
    if (pathname === '/favicon.ico') return void res.writeHead(204).end();
    const page = site.pages[pathname];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page?.replaceAll('{{collector}}', site.collector) ?? 'not found');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return site;
}

/** A page of the site with the one tag a site owner adds. */
export function sitePage(body: string, attributes = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Acme</title>
<script async src="{{collector}}/tracker.js" data-key="pk-test-key"${attributes}></script>
<style>body{font:18px system-ui;margin:2rem}</style></head><body>${body}</body></html>`;
}
