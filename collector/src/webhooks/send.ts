// One HTTP POST of an outbox message, with a total time limit (the answer's body included: a receiver
// trickling it holds the slot no longer); answers the status or the failure.
import http from 'node:http';
import https from 'node:https';
import { armDeadline } from './deadline.ts';
import { PrivateAddressRefused, publicOnlyLookup, refusedTarget } from './public-address.ts';

export interface SendResult {
  /** The receiver took it: a 2xx answer, or a mail server's acceptance. */
  delivered: boolean;
  httpStatus: number | null;
  error: string | null;
  /** Refused for good (a private address): retrying would not help. */
  permanent: boolean;
  /** Not before this long (a 429's Retry-After): the next attempt waits at least this. */
  retryAfterMs?: number | null;
}

export interface SendOptions {
  headers: Record<string, string>;
  /** The whole exchange's limit, from connecting to the answer's last byte. */
  timeoutMs: number;
  publicOnly: boolean;
  /** Aborts the attempt (the worker stopping). */
  signal?: AbortSignal;
}

export function send(url: string, body: string, { headers, timeoutMs, publicOnly, signal }: SendOptions): Promise<SendResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ delivered: false, httpStatus: null, error: `invalid URL ${url}`, permanent: true });
    }
    const refused = refusedTarget(target, publicOnly, 'webhook');
    if (refused) return resolve({ delivered: false, httpStatus: null, error: refused, permanent: true });
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      timeout: timeoutMs,
      ...(publicOnly ? { lookup: publicOnlyLookup } : {}),
    });
    const disarm = armDeadline(req, timeoutMs, signal, 'the delivery');
    req.on('response', (res) => {
      res.resume(); // the body is not needed; drain it so the socket is freed
      res.on('end', () => {
        disarm();
        resolve({ delivered: res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300, httpStatus: res.statusCode ?? null, error: null, permanent: false });
      });
      res.on('error', (err) => {
        disarm();
        resolve({ delivered: false, httpStatus: res.statusCode ?? null, error: err.message, permanent: false });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => {
      disarm();
      resolve({ delivered: false, httpStatus: null, error: err.message, permanent: err instanceof PrivateAddressRefused });
    });
    req.end(body);
  });
}
