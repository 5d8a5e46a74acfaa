// What the collector keeps of a carrier, inside other families' documents: an account's carrier
// account (team's AccountDoc.carrier) and a pool number's place at the carrier (domains' pool).

/** What an account keeps of its carrier account (AccountDoc.carrier). */
export interface CarrierConnectionDoc {
  provider: 'twilio';
  accountSid: string;
  /** An API key's SID (SK…), or null: the account's auth token. */
  apiKey: string | null;
  /** The auth token or API secret, sealed (secrets.ts). */
  secret: string;
  /** The token Twilio signs its requests with (the auth token), sealed; null when unknown (TWILIO_AUTH_TOKEN then checks them). */
  signingToken: string | null;
  /** The carrier account's name, as the carrier says. */
  name: string;
  connectedAt: Date;
  /** Set when the carrier refused the credentials (or the account is suspended) at a check; gone once it answers again. */
  broken?: { at: Date; error: string };
}

/** Where a tracked number is at its carrier (TrackingNumberDoc.carrier). */
export interface NumberAtCarrier {
  provider: 'twilio';
  accountSid: string;
  sid: string;
  /** Bought here (given back to the carrier when released) or imported (its URLs put back). */
  origin: 'bought' | 'imported';
  /** Where an imported number pointed before it was wired here. */
  previous: { voiceUrl: string | null; statusCallback: string | null; smsUrl: string | null } | null;
  wiredAt: Date;
  /** The last check (number-check.ts): where its voice URL pointed; `ok` false when its calls no longer come here. */
  check?: { at: Date; voiceUrl: string | null; ok: boolean };
}
