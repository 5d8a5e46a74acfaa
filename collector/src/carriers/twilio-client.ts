// Twilio's official Node library, pointed at TWILIO_API_BASE: every call to Twilio's REST API goes
// through its own request client, whose host (https://api.twilio.com) is replaced by the base, for
// a regional edge, an outgoing proxy, or a test's loopback stand-in; a base other than Twilio's own
// takes its other hosts' calls too (messaging.twilio.com, pricing.twilio.com). Each call has a time limit.
import twilio from 'twilio';
import { armDeadline } from '../webhooks/deadline.ts';

export const DEFAULT_TWILIO_API_BASE = 'https://api.twilio.com';
/** How long one call to Twilio's API may take before it is given up (the screen answers within it). */
export const TWILIO_TIMEOUT_MS = 10_000;
export const TWILIO_HOST = 'api.twilio.com';

type RequestOptions = Parameters<twilio.RequestClient['request']>[0];

/** A Twilio address at `base` instead (its path prefix included). */
export const rebased = (uri: URL, base: URL) => new URL(`${base.pathname.replace(/\/$/, '')}${uri.pathname}${uri.search}`, base.origin);

/** Twilio's request client with its API's host replaced by `base` (path prefix included). */
class BasedRequestClient extends twilio.RequestClient {
  constructor(private readonly base: URL) {
    super({ timeout: TWILIO_TIMEOUT_MS, keepAlive: false });
  }

  override request<T>(opts: RequestOptions): Promise<{ statusCode: number; body: T; headers: unknown }> {
    const uri = new URL(opts.uri);
    // Twilio's other hosts (messaging, pricing) go to the base too, unless it is Twilio's own.
    const moved = uri.hostname === TWILIO_HOST || (this.base.origin !== DEFAULT_TWILIO_API_BASE && uri.hostname.endsWith('.twilio.com')) ? rebased(uri, this.base) : uri;
    const answer = super.request({ ...opts, uri: moved.href }) as Promise<{ statusCode: number; body: T; headers: unknown }>;
    // The library's timeout is an idle one (the socket's): the whole call has its limit too.
    let disarm = () => {};
    const cut = new Promise<never>((_, reject) => {
      disarm = armDeadline({ destroy: (err) => reject(Object.assign(err, { code: 'ECONNABORTED' })) }, TWILIO_TIMEOUT_MS, undefined, 'Twilio');
    });
    return Promise.race([answer, cut]).finally(disarm);
  }
}

/** A client of one Twilio account: by its auth token, or by an API key (`username` the key's SID). */
export function twilioClient(base: string, credentials: { accountSid: string; username: string; password: string }): twilio.Twilio {
  return twilio(credentials.username, credentials.password, { accountSid: credentials.accountSid, httpClient: new BasedRequestClient(new URL(base)) });
}
