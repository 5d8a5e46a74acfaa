// Twilio as a carrier (carrier.ts), through its official library (twilio-client.ts): the account
// (`GET /2010-04-01/Accounts/{Sid}.json`), its incoming phone numbers (list, update). Twilio's error
// bodies (`{code, message, more_info, status}`) become CarrierErrors in words, with Twilio's code.
import type twilio from 'twilio';
import { CarrierError, type Carrier, type CarrierAccount, type CarrierErrorKind, type CarrierNumber, type NumberPrice, type NumberSearch, type OutgoingCall, type OutgoingText, type UsTexting, type Wiring } from './carrier.ts';
import { TwilioA2p } from './twilio-a2p.ts';
import { rebased, TWILIO_HOST, twilioClient, TWILIO_TIMEOUT_MS } from './twilio-client.ts';

/** Twilio's inbound MMS are at most 5 MB in all. */
const MAX_MEDIA_BYTES = 5_000_000;

export interface TwilioCredentials {
  accountSid: string;
  /** An API key's SID (SK…) with its secret, Twilio's recommended form; absent: the account's auth token. */
  apiKey?: string;
  secret: string;
}

/** Twilio's codes, and what they mean to a person (https://www.twilio.com/docs/api/errors). */
const KINDS: Record<number, CarrierErrorKind> = { 20003: 'credentials', 20404: 'refused', 20005: 'suspended', 21422: 'unavailable', 21452: 'unavailable', 20429: 'rate-limited', 21211: 'not-textable', 21408: 'not-textable', 21610: 'not-textable', 21612: 'not-textable', 21614: 'not-textable' };
const WORDS: Record<CarrierErrorKind, string> = {
  credentials: 'Twilio refused the credentials (wrong or revoked)',
  unavailable: 'the number is not available at Twilio',
  suspended: 'the Twilio account is suspended',
  'rate-limited': 'Twilio asks to slow down (too many requests)',
  timeout: `Twilio did not answer within ${TWILIO_TIMEOUT_MS / 1000} s`,
  unreachable: 'Twilio could not be reached',
  refused: 'Twilio refused the request',
  'not-textable': 'Twilio cannot text this number',
};

/** A call to Twilio's API; its refusal in words. */
async function asked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw carrierErrorOf(err);
  }
}

export function carrierErrorOf(err: unknown): CarrierError {
  const e = err as { status?: number; code?: number | string; message?: string; moreInfo?: string };
  if (typeof e.status === 'number') {
    const code = typeof e.code === 'number' ? e.code : null;
    const kind = (code !== null && KINDS[code]) || (e.status === 401 ? 'credentials' : e.status === 429 ? 'rate-limited' : 'refused');
    return new CarrierError(`${WORDS[kind]}: ${e.message ?? `HTTP ${e.status}`}${code !== null ? ` (Twilio error ${code})` : ''}`, kind, code);
  }
  const kind = e.code === 'ECONNABORTED' || /timeout/i.test(e.message ?? '') ? 'timeout' : 'unreachable';
  return new CarrierError(`${WORDS[kind]}${kind === 'unreachable' && e.message ? `: ${e.message}` : ''}`, kind, null);
}

type IncomingNumber = Awaited<ReturnType<twilio.Twilio['incomingPhoneNumbers']['list']>>[number];

/** A wiring as Twilio's fields: every URL called with POST, as the collector's doors take them. */
const twilioFields = (w: Wiring) => ({ voiceUrl: w.voiceUrl, voiceMethod: 'POST', statusCallback: w.statusCallback, statusCallbackMethod: 'POST', smsUrl: w.smsUrl, smsMethod: 'POST' });

const numberOf = (n: IncomingNumber): CarrierNumber => ({ sid: n.sid, number: n.phoneNumber, friendlyName: n.friendlyName, voiceUrl: n.voiceUrl || null, statusCallback: n.statusCallback || null, smsUrl: n.smsUrl || null });

/** Twilio's Pricing API's words for a number's type (`number_type`). */
const PRICED_AS: Record<NumberSearch['kind'], string> = { local: 'local', 'toll-free': 'toll free', mobile: 'mobile' };

export class TwilioCarrier implements Carrier {
  private readonly client: twilio.Twilio;
  readonly usTexting: UsTexting;

  constructor(
    private readonly apiBase: string,
    private readonly credentials: TwilioCredentials,
  ) {
    this.client = twilioClient(apiBase, { accountSid: credentials.accountSid, username: credentials.apiKey ?? credentials.accountSid, password: credentials.secret });
    const a2p = new TwilioA2p(this.client);
    this.usTexting = { brands: () => asked(() => a2p.brands()), numbers: (numbers) => asked(() => a2p.numbers(numbers)), registerCampaign: (request, sids, standing) => asked(() => a2p.registerCampaign(request, sids, standing)) };
  }

  /** Twilio's Pricing API (`GET pricing.twilio.com/v1/PhoneNumbers/Countries/{IsoCountry}`): the
   * current monthly price of the type, its discounts applied. */
  async monthlyPrice(country: string, kind: NumberSearch['kind']): Promise<NumberPrice | null> {
    const listed = await asked(() => this.client.pricing.v1.phoneNumbers.countries(country).fetch());
    const price = listed.phoneNumberPrices?.find((p) => p.numberType === PRICED_AS[kind]);
    const amount = Number(price?.currentPrice ?? price?.basePrice);
    return price && Number.isFinite(amount) ? { amount, currency: listed.priceUnit || 'USD' } : null;
  }

  async connect(): Promise<CarrierAccount> {
    const account = await asked(() => this.client.api.v2010.accounts(this.credentials.accountSid).fetch());
    if (account.status === 'suspended') throw new CarrierError(`${WORDS.suspended} (Twilio error 20005)`, 'suspended', 20005);
    // Twilio signs its webhooks with the account's auth token: the token itself, or, connected by an
    // API key, the account's as its API answers it (null when the key may not read it).
    return { name: account.friendlyName, status: account.status, signingToken: this.credentials.apiKey ? (account.authToken ?? null) : this.credentials.secret };
  }

  async listNumbers(): Promise<CarrierNumber[]> {
    return (await asked(() => this.client.incomingPhoneNumbers.list({ pageSize: 1000, limit: 10_000 }))).map(numberOf);
  }

  async search({ country, kind, areaCode, locality, contains, limit }: NumberSearch): Promise<string[]> {
    const where = this.client.availablePhoneNumbers(country);
    const options = { limit, ...(areaCode ? { areaCode: Number(areaCode) } : {}), ...(locality ? { inLocality: locality } : {}), ...(contains ? { contains } : {}) };
    const listed = (): Promise<{ phoneNumber: string }[]> => (kind === 'toll-free' ? where.tollFree.list(options) : kind === 'mobile' ? where.mobile.list(options) : where.local.list(options));
    const found = await asked(listed);
    return found.map((n) => n.phoneNumber);
  }

  async buy(number: string, wiring: Wiring): Promise<CarrierNumber> {
    return numberOf(await asked(() => this.client.incomingPhoneNumbers.create({ phoneNumber: number, ...twilioFields(wiring) })));
  }

  async wire(sid: string, wiring: Wiring): Promise<CarrierNumber> {
    return numberOf(await asked(() => this.client.incomingPhoneNumbers(sid).update(twilioFields(wiring))));
  }

  async release(sid: string): Promise<void> {
    await asked(() => this.client.incomingPhoneNumbers(sid).remove());
  }

  async fetchNumber(sid: string): Promise<CarrierNumber> {
    return numberOf(await asked(() => this.client.incomingPhoneNumbers(sid).fetch()));
  }

  /** Twilio's Calls API (`POST /2010-04-01/Accounts/{Sid}/Calls.json`): the call fetches its TwiML at `url`. */
  async placeCall({ from, to, url, statusCallback }: OutgoingCall): Promise<{ sid: string }> {
    const placed = await asked(() => this.client.calls.create({ from, to, url, method: 'POST', statusCallback, statusCallbackMethod: 'POST', statusCallbackEvent: ['completed'] }));
    return { sid: placed.sid };
  }

  /** An MMS's media (`GET /2010-04-01/Accounts/{Sid}/Messages/{MM}/Media/{ME}`), only at Twilio's API
   * host (rebased like every call), with the account's credentials; Twilio answers with a redirect
   * to its store, followed without them. At most MAX_MEDIA_BYTES, within the time limit. */
  async media(url: string): Promise<{ contentType: string; body: Buffer }> {
    const at = new URL(url);
    if (at.protocol !== 'https:' || at.hostname !== TWILIO_HOST || !at.pathname.startsWith(`/2010-04-01/Accounts/${this.credentials.accountSid}/`)) throw new CarrierError('Twilio refused the request: not a media address of this account', 'refused', null);
    const target = rebased(at, new URL(this.apiBase));
    const auth = Buffer.from(`${this.credentials.apiKey ?? this.credentials.accountSid}:${this.credentials.secret}`).toString('base64');
    const answer = await asked(async () => {
      const res = await fetch(target, { headers: { authorization: `Basic ${auth}` }, redirect: 'follow', signal: AbortSignal.timeout(TWILIO_TIMEOUT_MS) });
      if (!res.ok) throw Object.assign(new Error(`HTTP ${res.status}`), { status: res.status });
      return res;
    });
    const length = Number(answer.headers.get('content-length') ?? 0);
    if (length > MAX_MEDIA_BYTES) throw new CarrierError(`Twilio's media is larger than ${MAX_MEDIA_BYTES / 1_000_000} MB`, 'refused', null);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_MEDIA_BYTES) throw new CarrierError(`Twilio's media is larger than ${MAX_MEDIA_BYTES / 1_000_000} MB`, 'refused', null);
      chunks.push(Buffer.from(chunk));
    }
    return { contentType: answer.headers.get('content-type') ?? 'application/octet-stream', body: Buffer.concat(chunks) };
  }

  /** Twilio's Messages API (`POST /2010-04-01/Accounts/{Sid}/Messages.json`). */
  async sendText({ from, to, body, statusCallback }: OutgoingText): Promise<{ sid: string; status: string }> {
    const sent = await asked(() => this.client.messages.create({ from, to, body, statusCallback }));
    return { sid: sent.sid, status: sent.status };
  }
}
