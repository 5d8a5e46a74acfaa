// Google Ads through the Data Manager API (`events:ingest`), with Google's own client
// (@google-ads/datamanager over its HTTP/JSON transport, google-auth-library for the credentials): a
// service account's key signs its own short-lived token (no token endpoint is called), an OAuth
// refresh token is exchanged at Google's token endpoint. Each lead is one event: its click id (gclid,
// gbraid or wbraid), its time, value and currency, and the hashed phone and e-mail of enhanced
// conversions for leads; its transaction id makes a second sending of it count once. Google answers
// a request once it has checked it, and processes its events after: the request's status says later
// whether they were taken (requestStatus:retrieve).
import { IngestionServiceClient, protos } from '@google-ads/datamanager';
import { GoogleAuth, OAuth2Client } from 'google-auth-library';
import { hashedFor } from './hashing.ts';
import { transactionIdOf, type LeadEvent } from './lead-event.ts';
import type { SendOutcome } from './send-outcome.ts';
import { failureOf } from './send-outcome.ts';

export const DEFAULT_GOOGLE_DATA_MANAGER_ENDPOINT = 'https://datamanager.googleapis.com';
const SCOPE = 'https://www.googleapis.com/auth/datamanager';
/** Events one request carries at most (the API's limit). */
export const GOOGLE_BATCH = 2000;
/** A request's time at most: a slow answer frees its outbox slot and is retried. */
const TIMEOUT_MS = 30_000;

export interface GoogleSettings {
  operatingAccountId: string;
  conversionActionId: string;
  loginAccountId?: string;
}

/** A service account's key as Google gives it (the fields we use). */
export interface ServiceAccountKey {
  type: 'service_account';
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
}

export type GoogleSecret = { serviceAccountKey: ServiceAccountKey } | { oauth: { clientId: string; clientSecret?: string; refreshToken: string } };

export interface GoogleEndpoints {
  /** GOOGLE_DATA_MANAGER_ENDPOINT: Google's, a proxy, a test's stand-in. */
  dataManager: string;
  /** GOOGLE_OAUTH_TOKEN_URL (ours): where a refresh token is exchanged. */
  oauthToken?: string;
}

type IEvent = protos.google.ads.datamanager.v1.IEvent;

/** The event of a lead; null when it has nothing Google can match it by (then it is not sent). */
export function googleEvent(lead: LeadEvent): IEvent | null {
  const click = lead.gclid ? { gclid: lead.gclid } : lead.gbraid ? { gbraid: lead.gbraid } : lead.wbraid ? { wbraid: lead.wbraid } : null;
  const hashed = hashedFor('google', lead.phone, lead.email);
  const identifiers = [...(hashed.email ? [{ emailAddress: hashed.email }] : []), ...(hashed.phone ? [{ phoneNumber: hashed.phone }] : [])];
  if (!click && !identifiers.length) return null;
  const ms = lead.at.getTime();
  return {
    transactionId: transactionIdOf(lead),
    eventTimestamp: { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 },
    ...(click ? { adIdentifiers: click } : {}),
    ...(identifiers.length ? { userData: { userIdentifiers: identifiers } } : {}),
    conversionValue: lead.value,
    currency: lead.currency,
    eventSource: lead.kind === 'call' ? 'PHONE' : 'WEB',
  };
}

export class GoogleDataManager {
  private readonly client: IngestionServiceClient;

  constructor(
    private readonly settings: GoogleSettings,
    secret: GoogleSecret,
    endpoints: GoogleEndpoints,
  ) {
    const url = new URL(endpoints.dataManager);
    const auth =
      'serviceAccountKey' in secret
        ? { auth: new GoogleAuth({ credentials: secret.serviceAccountKey, scopes: [SCOPE] }) }
        : { authClient: oauthClient(secret.oauth, endpoints.oauthToken) };
    this.client = new IngestionServiceClient({ fallback: true, apiEndpoint: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80), protocol: url.protocol.slice(0, -1), ...auth } as ConstructorParameters<typeof IngestionServiceClient>[0]);
  }

  /** Sends the events; `validateOnly`: Google checks them and keeps nothing (the test button). */
  async ingest(events: IEvent[], validateOnly = false): Promise<SendOutcome> {
    const destination = {
      operatingAccount: { accountType: 'GOOGLE_ADS' as const, accountId: this.settings.operatingAccountId },
      ...(this.settings.loginAccountId ? { loginAccount: { accountType: 'GOOGLE_ADS' as const, accountId: this.settings.loginAccountId } } : {}),
      productDestinationId: this.settings.conversionActionId,
    };
    try {
      const [answer] = await this.client.ingestEvents({ destinations: [destination], events, encoding: 'HEX', validateOnly }, { timeout: TIMEOUT_MS });
      return { ok: true, id: answer.requestId ?? null };
    } catch (err) {
      return googleFailure(err);
    }
  }

  /** What Google made of a request it took: processing still, done, failed or done in part, and the
   * reasons of the events it could not take (with how many). */
  async requestStatus(requestId: string): Promise<GoogleRequestStatus | SendOutcome> {
    try {
      const [answer] = await this.client.retrieveRequestStatus({ requestId }, { timeout: TIMEOUT_MS });
      const destination = answer.requestStatusPerDestination?.[0];
      const errors = (destination?.errorInfo?.errorCounts ?? []).map((e) => `${nameOf(protos.google.ads.datamanager.v1.ProcessingErrorReason, e.reason, 'UNSPECIFIED').replace(/^PROCESSING_ERROR_REASON_/, '')} (${e.recordCount ?? 0})`);
      return { status: nameOf(RequestStatus, destination?.requestStatus, 'REQUEST_STATUS_UNKNOWN') as GoogleRequestStatus['status'], errors };
    } catch (err) {
      return googleFailure(err);
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

const RequestStatus = protos.google.ads.datamanager.v1.RequestStatusPerDestination.RequestStatus;

/** A request's status as Google says it, and the reasons of the events it could not take. */
export interface GoogleRequestStatus {
  status: 'SUCCESS' | 'PROCESSING' | 'FAILED' | 'PARTIAL_SUCCESS' | 'REQUEST_STATUS_UNKNOWN';
  errors: string[];
}

/** An enum's name, whether the client gave its name or its number (the transport's encoding). */
function nameOf(values: Record<string | number, string | number>, value: unknown, unknown: string): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' ? String(values[value] ?? unknown) : unknown;
}

function oauthClient(oauth: { clientId: string; clientSecret?: string; refreshToken: string }, tokenUrl?: string): OAuth2Client {
  const client = new OAuth2Client({ clientId: oauth.clientId, ...(oauth.clientSecret ? { clientSecret: oauth.clientSecret } : {}), ...(tokenUrl ? { endpoints: { oauth2TokenUrl: tokenUrl } } : {}) });
  client.setCredentials({ refresh_token: oauth.refreshToken });
  return client;
}

/** gRPC codes as the HTTP statuses Google maps them to, for errors the client gives as gRPC. */
const HTTP_OF_GRPC: Record<number, number> = { 3: 400, 5: 404, 7: 403, 8: 429, 9: 400, 13: 500, 14: 503, 16: 401, 4: 504 };

/** Google's error as a failure: its status, its message, the events its field violations name. */
export function googleFailure(err: unknown): SendOutcome {
  const raw = err as { code?: number | string; message?: string };
  let body: { code?: number; message?: string; details?: { fieldViolations?: { field?: string; description?: string }[] }[] } | undefined;
  try {
    body = (JSON.parse(raw.message ?? '') as { error?: typeof body }).error;
  } catch {
    body = undefined;
  }
  const code = typeof raw.code === 'number' ? raw.code : undefined;
  const status = body?.code ?? (code === undefined ? null : code >= 100 ? code : (HTTP_OF_GRPC[code] ?? 500));
  const violations = (body?.details ?? []).flatMap((d) => d.fieldViolations ?? []);
  const rejected = new Map<number, string>();
  for (const v of violations) {
    const index = /events\[(\d+)\]/.exec(v.field ?? '')?.[1];
    if (index !== undefined) rejected.set(Number(index), `${v.field}: ${v.description ?? 'refused'}`);
  }
  return failureOf(status, body?.message ?? raw.message ?? String(err), rejected);
}
