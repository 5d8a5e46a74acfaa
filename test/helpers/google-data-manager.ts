// A stand-in for Google's Data Manager API on loopback, answering `POST /v1/events:ingest` as its
// reference documents: `{"requestId": …}` when the request is whole; a fast-fail 400 INVALID_ARGUMENT
// (google.rpc.Status with a BadRequest of field violations naming each wrong event) when any event
// is wrong; 401 UNAUTHENTICATED without a valid token; and whatever a test queues (429, 500...).
// `GET /v1/requestStatus:retrieve` says what it made of a request it took: PROCESSING for its first
// `processingAsks` asks, then SUCCESS, or FAILED (PARTIAL_SUCCESS when others were fine) with the
// count of events whose gclid it cannot process, by reason, in the enum encoding asked for. The
// token is the one a service account's key signs itself (google-auth-library's self-signed JWT):
// checked here against the key's public half, its issuer and its scope.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';

export interface IngestRequest {
  body: { destinations: { operatingAccount: { accountId: string }; productDestinationId: string }[]; events: Record<string, unknown>[]; validateOnly?: boolean; encoding?: unknown };
  issuer: string;
}

export interface DataManagerStandIn {
  base: string;
  /** A service account key of a made-up project, whose tokens this stand-in takes. */
  key: { type: 'service_account'; project_id: string; private_key_id: string; private_key: string; client_email: string };
  requests: IngestRequest[];
  /** The next answers, before the usual ones: an HTTP status and Google's status word. */
  answerNext(...answers: { status: number; word: string; message: string }[]): void;
  /** Event gclids this stand-in refuses (as an invalid click id). */
  badClicks: Set<string>;
  /** The key was revoked in Google Cloud: its tokens are refused (401) until this is false again. */
  revoked: boolean;
  /** Google is down: 503 UNAVAILABLE until this is false again. */
  down: boolean;
  /** Gclids it takes in a request but then cannot process (an unknown click): its status says so. */
  unprocessable: Set<string>;
  /** How many asks of a request's status answer PROCESSING before its outcome. */
  processingAsks: number;
  /** The request ids asked about, in order. */
  statusAsks: string[];
  close(): Promise<void>;
}

const SCOPE = 'https://www.googleapis.com/auth/datamanager';

export async function startDataManager(): Promise<DataManagerStandIn> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = { type: 'service_account' as const, project_id: 'ringtrail-test', private_key_id: 'key-1', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), client_email: 'conversions@ringtrail-test.iam.gserviceaccount.com' };
  const queued: { status: number; word: string; message: string }[] = [];
  const stand: DataManagerStandIn = { base: '', key, requests: [], answerNext: (...a) => queued.push(...a), badClicks: new Set(), revoked: false, down: false, unprocessable: new Set(), processingAsks: 0, statusAsks: [], close: () => new Promise((r) => server.close(() => r())) };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const fail = (status: number, word: string, message: string, details: unknown[] = []) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify({ error: { code: status, message, status: word, details } }));
      };
      if (req.method === 'GET' && req.url?.startsWith('/v1/requestStatus:retrieve')) {
        const issuer = verifiedIssuer(req.headers.authorization, publicKey, key.client_email);
        if (!issuer) return fail(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
        const url = new URL(req.url, 'http://stand-in');
        const requestId = url.searchParams.get('requestId') ?? '';
        const n = Number(/^request-(\d+)$/.exec(requestId)?.[1]);
        const request = stand.requests[n - 1];
        if (!request) return fail(404, 'NOT_FOUND', `No request ${requestId}`);
        const ints = /enum-encoding=int/.test(decodeURIComponent(url.search));
        const asked = stand.statusAsks.filter((id) => id === requestId).length;
        stand.statusAsks.push(requestId);
        const failed = request.body.events.filter((e) => stand.unprocessable.has(String((e.adIdentifiers as { gclid?: string } | undefined)?.gclid))).length;
        const status = asked < stand.processingAsks ? 'PROCESSING' : failed === 0 ? 'SUCCESS' : failed === request.body.events.length ? 'FAILED' : 'PARTIAL_SUCCESS';
        const STATUS = { SUCCESS: 1, PROCESSING: 2, FAILED: 3, PARTIAL_SUCCESS: 4 } as const;
        const reason = 'PROCESSING_ERROR_REASON_INVALID_GCLID';
        res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
        return res.end(JSON.stringify({ requestStatusPerDestination: [{ destination: request.body.destinations[0], requestStatus: ints ? STATUS[status] : status, ...(failed && status !== 'PROCESSING' ? { errorInfo: { errorCounts: [{ recordCount: String(failed), reason: ints ? 10 : reason }] } } : {}), eventsIngestionStatus: { recordCount: String(request.body.events.length) } }] }));
      }
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/events:ingest')) return fail(404, 'NOT_FOUND', `${req.method} ${req.url} is not a method of this API`);
      const issuer = verifiedIssuer(req.headers.authorization, publicKey, key.client_email);
      if (!issuer || stand.revoked) return fail(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
      if (stand.down) return fail(503, 'UNAVAILABLE', 'The service is currently unavailable.');
      const next = queued.shift();
      if (next) return fail(next.status, next.word, next.message);
      const body = JSON.parse(raw) as IngestRequest['body'];
      stand.requests.push({ body, issuer });
      const violations = body.events.flatMap((event, i) => {
        const gclid = (event.adIdentifiers as { gclid?: string } | undefined)?.gclid;
        return gclid && stand.badClicks.has(gclid) ? [{ field: `events[${i}].ad_identifiers.gclid`, description: 'The click identifier is not valid.', reason: 'INVALID_FORMAT' }] : [];
      });
      if (violations.length) return fail(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations }]);
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body.validateOnly ? {} : { requestId: `request-${stand.requests.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stand.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stand;
}

/** The issuer of a self-signed service account token, when its signature, issuer and scope hold. */
function verifiedIssuer(authorization: string | undefined, publicKey: KeyObject, email: string): string | null {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  const [header, payload, signature] = token?.split('.') ?? [];
  if (!header || !payload || !signature) return null;
  const verifier = createVerify('RSA-SHA256');
  verifier.update(`${header}.${payload}`);
  if (!verifier.verify(publicKey, Buffer.from(signature, 'base64url'))) return null;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss?: string; scope?: string; exp?: number };
  const fresh = typeof claims.exp === 'number' && claims.exp * 1000 > Date.now();
  return claims.iss === email && fresh && (claims.scope ?? '').split(' ').includes(SCOPE) ? claims.iss : null;
}
