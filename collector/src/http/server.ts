// The HTTP server of the collector: Koa's handler with bounds on slow clients. A request whose
// headers and body have not arrived whole within `requestTimeoutMs` is answered 408 and its
// connection closed (Node's own default waits 5 minutes, and checks only every 30 s), so slow
// connections cannot pile up.
import http from 'node:http';
import type Koa from 'koa';

export function createHttpServer(app: Koa, { requestTimeoutMs }: { requestTimeoutMs: number }): http.Server {
  return http.createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
    },
    app.callback(),
  );
}
