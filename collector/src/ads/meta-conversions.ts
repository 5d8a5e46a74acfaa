// Meta through its Conversions API (`POST /{dataset id}/events` of the Graph API), over fetch: Meta's
// Node SDK is not under an open-source licence. Each lead is a `Lead` event: `phone_call` for a call,
// `system_generated` for a form; its `event_id` (the lead's transaction id) lets Meta keep it once;
// `fbc` is built from the kept fbclid as Meta documents (`fb.1.<click time ms>.<fbclid>`); the phone
// and e-mail hashed; the value and currency. `test_event_code` makes it a test that Meta shows in
// Events Manager's Test events and counts nowhere.
import { hashedFor } from './hashing.ts';
import { transactionIdOf, type LeadEvent } from './lead-event.ts';
import { failureOf, type SendOutcome } from './send-outcome.ts';

export const DEFAULT_META_GRAPH_API_BASE = 'https://graph.facebook.com';
/** The Graph API version the requests name. */
export const META_GRAPH_VERSION = 'v24.0';
/** Events one request carries at most (the API's limit). */
export const META_BATCH = 1000;
/** The test button's code: the events show under Test events, and count nowhere. */
export const META_TEST_CODE = 'RINGTRAIL_TEST';
const TIMEOUT_MS = 30_000;

export interface MetaSettings {
  datasetId: string;
}

/** Graph API error codes that mean the credentials (190: an expired or revoked token; 10 and 200:
 * no permission), "too many calls, later" (4, 17, 32, 613, 80004), and "try again" (1: unknown, 2:
 * service temporarily unavailable; Meta also marks them `is_transient`). */
const AUTH_CODES = new Set([190, 10, 200]);
const THROTTLE_CODES = new Set([4, 17, 32, 613, 80004]);
const TRANSIENT_CODES = new Set([1, 2]);

/** The event of a lead; null when Meta has nothing to match it by. */
export function metaEvent(lead: LeadEvent): Record<string, unknown> | null {
  const hashed = hashedFor('meta', lead.phone, lead.email);
  const fbc = lead.fbclid ? `fb.1.${(lead.clickAt ?? lead.at).getTime()}.${lead.fbclid}` : null;
  if (!fbc && !hashed.phone && !hashed.email) return null;
  return {
    event_name: 'Lead',
    event_time: Math.floor(lead.at.getTime() / 1000),
    event_id: transactionIdOf(lead),
    action_source: lead.kind === 'call' ? 'phone_call' : 'system_generated',
    ...(lead.pageUrl && lead.kind === 'form' ? { event_source_url: lead.pageUrl } : {}),
    user_data: { ...(hashed.phone ? { ph: [hashed.phone] } : {}), ...(hashed.email ? { em: [hashed.email] } : {}), ...(fbc ? { fbc } : {}) },
    custom_data: { value: lead.value, currency: lead.currency },
  };
}

export class MetaConversions {
  constructor(
    private readonly settings: MetaSettings,
    private readonly accessToken: string,
    private readonly base = DEFAULT_META_GRAPH_API_BASE,
  ) {}

  async send(events: Record<string, unknown>[], test = false): Promise<SendOutcome> {
    const url = `${this.base.replace(/\/$/, '')}/${META_GRAPH_VERSION}/${encodeURIComponent(this.settings.datasetId)}/events`;
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: events, access_token: this.accessToken, ...(test ? { test_event_code: META_TEST_CODE } : {}) }), signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (err) {
      return failureOf(null, (err as Error).message);
    }
    const body = (await res.json().catch(() => null)) as { events_received?: number; fbtrace_id?: string; error?: { message?: string; code?: number; error_subcode?: number; is_transient?: boolean } } | null;
    if (res.ok && body && !body.error) return { ok: true, id: body.fbtrace_id ?? null };
    const error = body?.error;
    const code = error?.code;
    // Meta answers most errors with a 400: its code says which kind.
    const transient = error?.is_transient === true || (code !== undefined && TRANSIENT_CODES.has(code));
    const status = code !== undefined && AUTH_CODES.has(code) ? 401 : code !== undefined && THROTTLE_CODES.has(code) ? 429 : transient && res.status < 500 ? 503 : res.status;
    return failureOf(status, `${error?.message ?? `HTTP ${res.status}`}${code !== undefined ? ` (code ${code}${error?.error_subcode ? `, subcode ${error.error_subcode}` : ''})` : ''}`);
  }
}
