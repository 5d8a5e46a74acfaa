// The HTTP server of the collector: Koa's handler with bounds on slow clients. A request whose
// headers and body have not arrived whole within `requestTimeoutMs` is answered 408 and its
// connection closed (Node's own default waits 5 minutes, and checks only every 30 s), so slow
// connections cannot pile up.
import http from 'node:http';
import type Koa from 'koa';

/** `app` may be null and handed over later (`serve`): the app is then made knowing the port it listens on. */
export function createHttpServer(app: Koa | null, { requestTimeoutMs }: { requestTimeoutMs: number }): http.Server {
  const server = http.createServer({
    requestTimeout: requestTimeoutMs,
    headersTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
  });
  if (app) serve(server, app);
  return server;
}

export function serve(server: http.Server, app: Koa): void {
  server.on('request', app.callback());
}

/** The address a listening server is reached at, for links in development (no PUBLIC_URL): a
 * wildcard address (0.0.0.0, ::) is named as loopback. */
export function listenUrlOf(server: http.Server, host: string): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const named = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${named}:${port}`;
}
