// Microsoft Advertising's offline conversions through the Campaign Management REST API
// (`POST …/CampaignManagement/v13/OfflineConversions/Apply`), over fetch: Microsoft publishes no Node
// SDK. The refresh token is exchanged for an access token at Microsoft's identity platform; each
// request carries it with the developer token, the customer and the ad account. Each lead is one
// offline conversion: its msclkid, the conversion goal's name, its time (UTC), value and currency,
// and its hashed e-mail and phone. Microsoft ignores a second conversion of the same click, name and
// time, so a retried request counts once; it answers the leads it refuses as partial errors, by
// their place in the request. A lead that stops being one is retracted the same way
// (`OfflineConversionAdjustments/Apply`, AdjustmentType Retract, naming the original click, name and time).
import { hashedFor } from './hashing.ts';
import type { LeadEvent } from './lead-event.ts';
import { failureOf, type SendOutcome } from './send-outcome.ts';

export const DEFAULT_MICROSOFT_ADS_API_BASE = 'https://campaign.api.bingads.microsoft.com';
export const DEFAULT_MICROSOFT_OAUTH_TOKEN_URL = 'https://login.microsoftonline.com/common/oauth2/v2.0/token';
const SCOPE = 'https://ads.microsoft.com/msads.manage offline_access';
const TIMEOUT_MS = 30_000;

export interface MicrosoftSettings {
  customerId: string;
  accountId: string;
  conversionName: string;
}

export interface MicrosoftSecret {
  developerToken: string;
  oauth: { clientId: string; clientSecret?: string; refreshToken: string };
}

/** Microsoft's error codes that mean the credentials (invalid, not authorized, expired token). */
const AUTH_CODES = new Set([105, 106, 109]);

/** A time as Microsoft takes it: UTC, to the second. */
const utcTime = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

/** The offline conversion of a lead; null when Microsoft has nothing to match it by. */
export function microsoftConversion(lead: LeadEvent, conversionName: string): Record<string, unknown> | null {
  const hashed = hashedFor('microsoft', lead.phone, lead.email);
  if (!lead.msclkid && !hashed.email && !hashed.phone) return null;
  return {
    ConversionCurrencyCode: lead.currency,
    ConversionName: conversionName,
    ConversionTime: utcTime(lead.at),
    ConversionValue: lead.value,
    ...(lead.msclkid ? { MicrosoftClickId: lead.msclkid } : {}),
    ...(hashed.email ? { HashedEmailAddress: hashed.email } : {}),
    ...(hashed.phone ? { HashedPhoneNumber: hashed.phone } : {}),
  };
}

export class MicrosoftConversions {
  constructor(
    private readonly settings: MicrosoftSettings,
    private readonly secret: MicrosoftSecret,
    private readonly endpoints: { api: string; token: string },
  ) {}

  async send(leads: LeadEvent[]): Promise<SendOutcome> {
    return this.apply('OfflineConversions', { OfflineConversions: leads.map((lead) => microsoftConversion(lead, this.settings.conversionName)) });
  }

  /** Takes sent conversions back: each names the original click, conversion name and time. */
  async retract(leads: LeadEvent[], now: Date): Promise<SendOutcome> {
    const adjustments = leads.map((lead) => {
      const { ConversionValue: _value, ConversionCurrencyCode: _currency, ...original } = microsoftConversion(lead, this.settings.conversionName)!;
      return { ...original, AdjustmentType: 'Retract', AdjustmentTime: utcTime(now) };
    });
    return this.apply('OfflineConversionAdjustments', { OfflineConversionAdjustments: adjustments });
  }

  /** Restates sent conversions' values (`AdjustmentType: Restate`): the original click, name and
   * time, with the new value and its currency. */
  async restate(leads: LeadEvent[], now: Date): Promise<SendOutcome> {
    const adjustments = leads.map((lead) => {
      const { ConversionValue: value, ConversionCurrencyCode: currency, ...original } = microsoftConversion(lead, this.settings.conversionName)!;
      return { ...original, AdjustmentType: 'Restate', AdjustmentValue: value, AdjustmentCurrencyCode: currency, AdjustmentTime: utcTime(now) };
    });
    return this.apply('OfflineConversionAdjustments', { OfflineConversionAdjustments: adjustments });
  }

  /** `POST …/{operation}/Apply`: partial errors name the refused by their index. */
  private async apply(operation: 'OfflineConversions' | 'OfflineConversionAdjustments', payload: Record<string, unknown>): Promise<SendOutcome> {
    const token = await this.accessToken();
    if (typeof token !== 'string') return token;
    const url = `${this.endpoints.api.replace(/\/$/, '')}/CampaignManagement/v13/${operation}/Apply`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}`, DeveloperToken: this.secret.developerToken, CustomerId: this.settings.customerId, CustomerAccountId: this.settings.accountId };
    const answer = await this.post(url, headers, JSON.stringify(payload));
    if ('failure' in answer) return answer.failure;
    const body = answer.body as { PartialErrors?: { Index?: number; ErrorCode?: string; Message?: string }[] | null; Errors?: { Code?: number; ErrorCode?: string; Message?: string }[] };
    if (answer.status === 200) {
      const rejected = new Map((body.PartialErrors ?? []).filter((e) => typeof e.Index === 'number').map((e) => [e.Index!, `${e.ErrorCode ?? 'Error'}: ${e.Message ?? 'refused'}`]));
      return { ok: true, id: null, rejected };
    }
    const error = body.Errors?.[0];
    const status = error?.Code !== undefined && AUTH_CODES.has(error.Code) ? 401 : answer.status;
    return failureOf(status, error ? `${error.ErrorCode ?? 'Error'}: ${error.Message ?? ''} (code ${error.Code})` : `HTTP ${answer.status}`);
  }

  /** The test: the refresh token exchanged, nothing sent (the API has no mode that keeps nothing). */
  async checkCredentials(): Promise<SendOutcome> {
    const token = await this.accessToken();
    return typeof token === 'string' ? { ok: true, id: null } : token;
  }

  /** An access token for the refresh token, or the failure to tell. */
  private async accessToken(): Promise<string | SendOutcome> {
    const form = new URLSearchParams({ client_id: this.secret.oauth.clientId, grant_type: 'refresh_token', refresh_token: this.secret.oauth.refreshToken, scope: SCOPE, ...(this.secret.oauth.clientSecret ? { client_secret: this.secret.oauth.clientSecret } : {}) });
    const answer = await this.post(this.endpoints.token, { 'content-type': 'application/x-www-form-urlencoded' }, form.toString());
    if ('failure' in answer) return answer.failure;
    const body = answer.body as { access_token?: string; error?: string; error_description?: string };
    if (answer.status === 200 && body.access_token) return body.access_token;
    // invalid_grant: the refresh token expired or was revoked; invalid_client: the client is wrong.
    const auth = answer.status === 400 || answer.status === 401;
    return failureOf(auth ? 401 : answer.status, `${body.error ?? `HTTP ${answer.status}`}: ${body.error_description ?? 'the refresh token was refused'}`);
  }

  private async post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: unknown } | { failure: SendOutcome }> {
    try {
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as unknown };
    } catch (err) {
      return { failure: failureOf(null, (err as Error).message) };
    }
  }
}
