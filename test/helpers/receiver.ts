// A webhook receiver on loopback: records every request, answers 204, or 503 while `down`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url(path?: string): string;
  received: Received[];
  /** Answer 503 to everything (a receiver that is down, but reachable). */
  down: boolean;
  /** Resolves when `count` requests matching `pick` have arrived. */
  waitFor(count: number, pick?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const waiters = new Set<() => void>();
  const receiver: Receiver = {
    url: (path = '/hook') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received: [],
    down: false,
    async waitFor(count, pick = () => true, timeoutMs = 15_000) {
      const matching = () => receiver.received.filter(pick);
      const deadline = Date.now() + timeoutMs;
      while (matching().length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${matching().length}`);
        await new Promise<void>((resolve) => {
          waiters.add(resolve);
          setTimeout(resolve, 100);
        });
      }
      return matching();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (receiver.down) {
        res.writeHead(503).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://receiver');
      receiver.received.push({ path: url.pathname, query: url.searchParams, headers: req.headers, body, at: performance.now() });
      res.writeHead(204).end();
      for (const wake of waiters) wake();
      waiters.clear();
    });
  });
  server.listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return receiver;
}

/** The `realtimeData` of a webhook push, after checking its Standard Webhooks signature. */
export function verifiedPush(r: Received, secret: string): any {
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>, { jsonParse: false }); // throws on a bad signature
  return JSON.parse(new URLSearchParams(r.body).get('realtimeData')!);
}
