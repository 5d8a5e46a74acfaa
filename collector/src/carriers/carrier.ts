// What RingTrail needs of a carrier's API, behind one small interface: Twilio is its first
// implementation (twilio-carrier.ts); another (Telnyx, Vonage, a SIP trunk's API) is one file more.
// Numbers are in E.164 here (+33123456789); the collector's own form is made by the caller.

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
}

/** Why the carrier refused, in words, with its own code (Twilio's error codes). */
export type CarrierErrorKind = 'credentials' | 'unavailable' | 'suspended' | 'rate-limited' | 'timeout' | 'unreachable' | 'refused';

export class CarrierError extends Error {
  constructor(
    message: string,
    readonly kind: CarrierErrorKind,
    readonly code: number | null,
  ) {
    super(message);
  }
}

export interface Carrier {
  /** Checks the credentials against the carrier, at once. */
  connect(): Promise<CarrierAccount>;
  listNumbers(): Promise<CarrierNumber[]>;
  /** Sets where the number's calls and messages go; the number as it is after. */
  wire(sid: string, wiring: Wiring): Promise<CarrierNumber>;
}
