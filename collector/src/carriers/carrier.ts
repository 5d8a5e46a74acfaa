// What RingTrail needs of a carrier's API, behind one small interface: Twilio is its first
// implementation (twilio-carrier.ts); another (Telnyx, Vonage, a SIP trunk's API) is one file more.
// Numbers are in E.164 here (+33123456789); the collector's own form is made by the caller.
import type { A2pBrand, A2pCampaign, A2pNumber, CampaignRequest } from './twilio-a2p.ts';

/** A number of the carrier account, and where its calls and messages go now. */
export interface CarrierNumber {
  /** The carrier's id of the number (Twilio: PN…). */
  sid: string;
  number: string;
  friendlyName: string;
  voiceUrl: string | null;
  statusCallback: string | null;
  smsUrl: string | null;
}

/** Where a number's calls, their outcome and its messages are sent. */
export interface Wiring {
  voiceUrl: string;
  statusCallback: string;
  smsUrl: string;
}

export interface CarrierAccount {
  name: string;
  /** The carrier's word: active, suspended, closed. */
  status: string;
  /** What signs the carrier's requests to the collector (Twilio: the account's auth token), when the
   * credentials can see it; null: not known (an API key that may not read it). */
  signingToken: string | null;
}

/** Why the carrier refused, in words, with its own code (Twilio's error codes). */
export type CarrierErrorKind = 'credentials' | 'unavailable' | 'suspended' | 'rate-limited' | 'timeout' | 'unreachable' | 'refused' | 'not-textable';

export class CarrierError extends Error {
  constructor(
    message: string,
    readonly kind: CarrierErrorKind,
    readonly code: number | null,
  ) {
    super(message);
  }
}

/** Numbers on sale: a country (ISO 3166 alpha-2), a kind, and optional narrowing. */
export interface NumberSearch {
  country: string;
  kind: 'local' | 'toll-free' | 'mobile';
  areaCode?: string;
  /** A town or city (Twilio: InLocality). */
  locality?: string;
  contains?: string;
  limit: number;
}

export interface Carrier {
  /** Checks the credentials against the carrier, at once. */
  connect(): Promise<CarrierAccount>;
  listNumbers(): Promise<CarrierNumber[]>;
  /** Numbers on sale, in E.164; empty when the carrier has none there (or does not serve it). */
  search(query: NumberSearch): Promise<string[]>;
  /** Buys the number, wired at once; a CarrierError `unavailable` when it was taken meanwhile. */
  buy(number: string, wiring: Wiring): Promise<CarrierNumber>;
  /** Sets where the number's calls and messages go; the number as it is after. */
  wire(sid: string, wiring: Wiring): Promise<CarrierNumber>;
  /** Gives the number back to the carrier (it leaves the carrier account). */
  release(sid: string): Promise<void>;
  /** The number as the carrier has it now (where it points), for the check. */
  fetchNumber(sid: string): Promise<CarrierNumber>;
  /** Sends a text from one of the account's numbers; its status then comes to `statusCallback`. */
  sendText(text: OutgoingText): Promise<{ sid: string; status: string }>;
  /** Places a call from one of the account's numbers to `to`, answered by the instructions at `url`
   * (Twilio: TwiML); its end comes to `statusCallback`. */
  placeCall(call: OutgoingCall): Promise<{ sid: string }>;
  /** A picture or file of a text received (an MMS), read with the account's credentials; a
   * CarrierError `refused` for an address that is not the carrier's. */
  media(url: string): Promise<{ contentType: string; body: Buffer }>;
  /** The monthly price the carrier lists for a number of this country and kind; null: it lists none. */
  monthlyPrice(country: string, kind: NumberSearch['kind']): Promise<NumberPrice | null>;
  /** US texting registration (A2P 10DLC: Twilio's Messaging Services and campaigns); absent: the carrier has none. */
  readonly usTexting?: UsTexting;
}

export interface NumberPrice {
  /** What the carrier charges a month for one number, its discounts applied. */
  amount: number;
  /** ISO 4217 (USD). */
  currency: string;
}

/** A2P 10DLC (twilio-a2p.ts), each call's refusal a CarrierError. */
export interface UsTexting {
  brands(): Promise<A2pBrand[]>;
  numbers(numbers: string[]): Promise<A2pNumber[]>;
  registerCampaign(request: CampaignRequest, numberSids: Map<string, string>, standing: A2pNumber[]): Promise<A2pCampaign>;
}

/** A call to place, numbers in E.164. */
export interface OutgoingCall {
  from: string;
  to: string;
  url: string;
  statusCallback: string;
}

/** A text to send, numbers in E.164. */
export interface OutgoingText {
  from: string;
  to: string;
  body: string;
  statusCallback: string;
}
