// A stand-in for Meta's Conversions API on loopback (`POST /{version}/{dataset id}/events` of the
// Graph API), answering as its reference documents: `{"events_received": n, "messages": [],
// "fbtrace_id": …}`; a Graph API error (`{"error": {message, type, code, fbtrace_id}}`, HTTP 400)
// for a token it does not know (code 190, OAuthException), an event without event_name or with a
// refused fbc (code 100, invalid parameter), or what a test queues (code 17, too many calls).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MetaRequest {
  path: string;
  body: { data: Record<string, unknown>[]; access_token: string; test_event_code?: string };
}

export interface MetaStandIn {
  base: string;
  token: string;
  requests: MetaRequest[];
  answerNext(...errors: { code: number; message: string }[]): void;
  /** Meta is down: HTTP 503, a transient error (code 2), until this is false again. */
  down: boolean;
  close(): Promise<void>;
}

export async function startMetaCapi(token = 'EAAB-ringtrail-system-user-token'): Promise<MetaStandIn> {
  const queued: { code: number; message: string }[] = [];
  const stand: MetaStandIn = { base: '', token, requests: [], answerNext: (...e) => queued.push(...e), down: false, close: () => new Promise((r) => server.close(() => r())) };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const fail = (code: number, message: string, type = 'OAuthException') => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message, type, code, fbtrace_id: 'AbCdEf' } }));
      };
      if (req.method !== 'POST' || !/^\/v\d+\.\d+\/\d+\/events$/.test(req.url ?? '')) return fail(100, `Unsupported request: ${req.method} ${req.url}`, 'GraphMethodException');
      const body = JSON.parse(raw) as MetaRequest['body'];
      if (body.access_token !== stand.token) return fail(190, 'Error validating access token: Session has expired.');
      if (stand.down) {
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'Service temporarily unavailable', type: 'OAuthException', is_transient: true, code: 2, fbtrace_id: 'AbCdEf' } }));
      }
      const next = queued.shift();
      if (next) return fail(next.code, next.message);
      stand.requests.push({ path: req.url!, body });
      const bad = body.data.findIndex((event) => !event.event_name || String((event.user_data as { fbc?: string }).fbc ?? '').includes('BAD'));
      if (bad >= 0) return fail(100, `Invalid parameter: data[${bad}].user_data.fbc`, 'OAuthException');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ events_received: body.data.length, messages: [], fbtrace_id: `trace-${stand.requests.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stand.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stand;
}
