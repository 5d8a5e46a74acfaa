// The ad platforms' clients behind one face: check a connection's credentials, and send a request of
// leads (or a test that the platform keeps nothing of). Each platform's own client knows its request
// and its errors (google-data-manager.ts); the addresses come from the configuration, so a proxy or
// a test's stand-in takes the platform's place.
import type { AdsPlatform } from './documents.ts';
import { DEFAULT_GOOGLE_DATA_MANAGER_ENDPOINT, googleEvent, GoogleDataManager, type GoogleRequestStatus, type GoogleSecret, type GoogleSettings } from './google-data-manager.ts';
import type { LeadEvent } from './lead-event.ts';
import { DEFAULT_MICROSOFT_ADS_API_BASE, DEFAULT_MICROSOFT_OAUTH_TOKEN_URL, MicrosoftConversions, microsoftConversion, type MicrosoftSecret, type MicrosoftSettings } from './microsoft-conversions.ts';
import { DEFAULT_META_GRAPH_API_BASE, MetaConversions, metaEvent, type MetaSettings } from './meta-conversions.ts';
import { failureOf, type SendOutcome } from './send-outcome.ts';

export interface AdsEndpoints {
  /** GOOGLE_DATA_MANAGER_ENDPOINT. */
  googleDataManager: string;
  /** GOOGLE_OAUTH_TOKEN_URL (ours): Google's token endpoint, for OAuth refresh tokens. */
  googleOAuthToken?: string;
  /** META_GRAPH_API_BASE. */
  metaGraph: string;
  /** MICROSOFT_ADS_API_BASE, and MICROSOFT_OAUTH_TOKEN_URL (ours): where the refresh token is exchanged. */
  microsoftAds: string;
  microsoftOAuthToken: string;
}

export const DEFAULT_ADS_ENDPOINTS: AdsEndpoints = { googleDataManager: DEFAULT_GOOGLE_DATA_MANAGER_ENDPOINT, metaGraph: DEFAULT_META_GRAPH_API_BASE, microsoftAds: DEFAULT_MICROSOFT_ADS_API_BASE, microsoftOAuthToken: DEFAULT_MICROSOFT_OAUTH_TOKEN_URL };

/** Why a lead sent to Meta stays sent when it stops being one. */
export const META_CANNOT_RETRACT = "Meta's Conversions API cannot take a sent event back";
/** Why a lead sent to Meta keeps the value it was sent with. */
export const META_CANNOT_RESTATE = "Meta's Conversions API cannot change a sent event's value";

/** Leads one request of a platform carries at most. */
export const BATCH_OF: Record<AdsPlatform, number> = { google: 2000, microsoft: 1000, meta: 1000 };

/** Why a lead cannot be sent to a platform at all (nothing it matches by); null when it can. */
export function unsendable(platform: AdsPlatform, lead: LeadEvent): string | null {
  if (lead.adsDenied) return 'no consent: the visitor denied ad storage';
  if (platform === 'google') return googleEvent(lead) ? null : 'no click id (gclid, gbraid, wbraid), phone or e-mail';
  if (platform === 'meta') return metaEvent(lead) ? null : 'no fbclid, phone or e-mail';
  return microsoftConversion(lead, '') ? null : 'no click id (msclkid), phone or e-mail';
}

/** A lead Google, Microsoft or Meta may be tested with: a made-up click, kept by nobody. */
export const TEST_LEAD = (currency: string, now: Date): LeadEvent => ({ kind: 'call', id: 0, at: now, value: 1, currency, gclid: 'ringtrail-test', gbraid: null, wbraid: null, msclkid: 'ringtrail-test', fbclid: 'ringtrail-test', phone: '0612345678', email: 'test@example.com', adsDenied: false, pageUrl: null, clickAt: now });

export class PlatformClients {
  constructor(private readonly endpoints: AdsEndpoints = DEFAULT_ADS_ENDPOINTS) {}

  /** A refusal of the credentials in words, or null when the platform takes them (its other
   * objections, a made-up click's, are the test button's business). The test lead is in the
   * domain's currency. */
  async check(platform: AdsPlatform, settings: Record<string, string>, secret: Record<string, unknown>, currency: string): Promise<string | null> {
    const answer = await this.send(platform, settings, secret, [TEST_LEAD(currency, new Date())], true);
    if (answer.ok) return null;
    if (answer.auth) return `${platform} refused the credentials (HTTP ${answer.status}): ${answer.message}; nothing was stored`;
    return answer.status === null ? `${platform} did not answer: ${answer.message}; nothing was stored` : null;
  }

  /** Takes sent leads back: Google restates their value to 0 (the Data Manager API's adjustment:
   * the same transaction id, a new value; it has no retraction), Microsoft retracts them. */
  async retract(platform: AdsPlatform, settings: Record<string, string>, secret: Record<string, unknown>, leads: LeadEvent[]): Promise<SendOutcome> {
    if (platform === 'google') return this.send(platform, settings, secret, leads.map((lead) => ({ ...lead, value: 0 })));
    if (platform === 'microsoft') return this.microsoft(settings, secret).retract(leads, new Date());
    return failureOf(400, META_CANNOT_RETRACT);
  }

  /** Restates sent leads' values (each lead carries its new one): Google by the same transaction id
   * with the new value (the Data Manager API's adjustment), Microsoft by its `Restate` adjustment;
   * Meta cannot. */
  async restate(platform: AdsPlatform, settings: Record<string, string>, secret: Record<string, unknown>, leads: LeadEvent[]): Promise<SendOutcome> {
    if (platform === 'google') return this.send(platform, settings, secret, leads);
    if (platform === 'microsoft') return this.microsoft(settings, secret).restate(leads, new Date());
    return failureOf(400, META_CANNOT_RESTATE);
  }

  /** What Google made of a request it took (the others answer for each lead at once). */
  async googleRequestStatus(settings: Record<string, string>, secret: Record<string, unknown>, requestId: string): Promise<GoogleRequestStatus | SendOutcome> {
    const client = this.google(settings, secret);
    try {
      return await client.requestStatus(requestId);
    } finally {
      await client.close();
    }
  }

  /** One request of leads; `test`: the platform checks it and keeps nothing. */
  async send(platform: AdsPlatform, settings: Record<string, string>, secret: Record<string, unknown>, leads: LeadEvent[], test = false): Promise<SendOutcome> {
    if (platform === 'google') {
      const client = this.google(settings, secret);
      try {
        return await client.ingest(leads.map((lead) => googleEvent(lead)!), test);
      } finally {
        await client.close();
      }
    }
    if (platform === 'meta') return new MetaConversions(settings as unknown as MetaSettings, String(secret.accessToken), this.endpoints.metaGraph).send(leads.map((lead) => metaEvent(lead)!), test);
    // Microsoft has no test mode: the test checks the credentials (the token exchange) and sends nothing.
    const microsoft = this.microsoft(settings, secret);
    return test ? microsoft.checkCredentials() : microsoft.send(leads);
  }

  private google(settings: Record<string, string>, secret: Record<string, unknown>): GoogleDataManager {
    return new GoogleDataManager(settings as unknown as GoogleSettings, secret as unknown as GoogleSecret, { dataManager: this.endpoints.googleDataManager, ...(this.endpoints.googleOAuthToken ? { oauthToken: this.endpoints.googleOAuthToken } : {}) });
  }

  private microsoft(settings: Record<string, string>, secret: Record<string, unknown>): MicrosoftConversions {
    return new MicrosoftConversions(settings as unknown as MicrosoftSettings, secret as unknown as MicrosoftSecret, { api: this.endpoints.microsoftAds, token: this.endpoints.microsoftOAuthToken });
  }
}
