// A stand-in for Microsoft Advertising on loopback, answering as its references document: the
// identity platform's token endpoint (`POST /common/oauth2/v2.0/token`, grant_type refresh_token:
// an access token, or 400 invalid_grant for a refresh token it does not know), and the Campaign
// Management REST API's `POST /CampaignManagement/v13/OfflineConversions/Apply` and
// `…/OfflineConversionAdjustments/Apply` (200 with `PartialErrors` naming each refused item by its
// Index; 401 with `Errors` code 109 when the access token is not one it gave; whatever a test queues).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ApplyRequest {
  headers: http.IncomingHttpHeaders;
  body: { OfflineConversions: Record<string, unknown>[] };
}

export interface AdjustmentRequest {
  headers: http.IncomingHttpHeaders;
  body: { OfflineConversionAdjustments: Record<string, unknown>[] };
}

export interface MicrosoftStandIn {
  base: string;
  tokenUrl: string;
  refreshToken: string;
  requests: ApplyRequest[];
  adjustments: AdjustmentRequest[];
  answerNext(...answers: { status: number }[]): void;
  /** Microsoft is down: HTTP 503 until this is false again. */
  down: boolean;
  close(): Promise<void>;
}

export async function startMicrosoftAds(refreshToken = 'M.C123-refresh'): Promise<MicrosoftStandIn> {
  const issued = new Set<string>();
  const queued: { status: number }[] = [];
  const stand: MicrosoftStandIn = { base: '', tokenUrl: '', refreshToken, requests: [], adjustments: [], answerNext: (...a) => queued.push(...a), down: false, close: () => new Promise((r) => server.close(() => r())) };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/common/oauth2/v2.0/token' && req.method === 'POST') {
        const form = new URLSearchParams(raw);
        if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== stand.refreshToken) return json(400, { error: 'invalid_grant', error_description: 'AADSTS700082: The refresh token has expired due to inactivity.' });
        const token = `access-${issued.size + 1}`;
        issued.add(token);
        return json(200, { token_type: 'Bearer', scope: form.get('scope'), expires_in: 3600, access_token: token, refresh_token: stand.refreshToken });
      }
      const operation = /^\/CampaignManagement\/v13\/(OfflineConversions|OfflineConversionAdjustments)\/Apply$/.exec(req.url ?? '')?.[1];
      if (!operation || req.method !== 'POST') return json(404, { Errors: [{ Code: 0, ErrorCode: 'NotFound', Message: `${req.method} ${req.url}` }] });
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !issued.has(bearer) || !req.headers.developertoken) return json(401, { Errors: [{ Code: 109, ErrorCode: 'AuthenticationTokenExpired', Message: 'The OAuth access token has expired.' }] });
      const next = stand.down ? { status: 503 } : queued.shift();
      if (next) return json(next.status, { Errors: [{ Code: 0, ErrorCode: 'InternalError', Message: 'An internal error has occurred.' }] });
      if (operation === 'OfflineConversionAdjustments') {
        const body = JSON.parse(raw) as AdjustmentRequest['body'];
        stand.adjustments.push({ headers: req.headers, body });
        return json(200, { PartialErrors: null });
      }
      const body = JSON.parse(raw) as ApplyRequest['body'];
      stand.requests.push({ headers: req.headers, body });
      const partial = body.OfflineConversions.flatMap((c, i) => (String(c.MicrosoftClickId ?? '').includes('BAD') ? [{ Code: 4000, ErrorCode: 'OfflineConversionMicrosoftClickIdInvalid', FieldPath: null, Index: i, Message: 'The Microsoft click ID is invalid.', Type: 'BatchError' }] : []));
      return json(200, { PartialErrors: partial.length ? partial : null });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stand.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stand.tokenUrl = `${stand.base}/common/oauth2/v2.0/token`;
  return stand;
}
