// What a CRM does for RingTrail, whichever it is (hubspot.ts, salesforce.ts): check a connection,
// find or create the person, find an owner by e-mail, and put one activity (a call, a form's note) on
// the person, updating the same one ever after. Failures say what to do: retry later (a 429 after
// its Retry-After, a 5xx, no answer), the connection is broken (a token refused), or this one item is
// refused for good.
export const CRMS = ['hubspot', 'salesforce'] as const;
export type Crm = (typeof CRMS)[number];
export const CRM_NAMES: Record<Crm, string> = { hubspot: 'HubSpot', salesforce: 'Salesforce' };
/** The CRM's object a call or a form becomes. */
export const ACTIVITY_OBJECTS: Record<Crm, Record<'call' | 'form', string>> = { hubspot: { call: 'call', form: 'note' }, salesforce: { call: 'task', form: 'task' } };

export class CrmFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'retry' | 'broken' | 'refused',
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** The person as the CRM is asked to find or make them. */
export interface CrmPerson {
  /** E.164 first, then the national form. */
  phones: string[];
  email: string | null;
  /** Their name where a form gave it. */
  name: string | null;
  /** What first brought them here: a call or a form. */
  cameBy: 'call' | 'form';
  firstSource: string | null;
  firstCampaign: string | null;
  ownerId: string | null;
}

/** A call, or a form submission (a note), as the CRM records it. */
export interface CrmActivity {
  kind: 'call' | 'form';
  /** Ours, kept on the record: `call:12`, `form:7` of a domain. */
  ringtrailId: string;
  at: Date;
  title: string;
  /** The facts in words: source, keyword, campaign, summary or key phrases, verdict, value, tags. */
  body: string;
  durationSeconds: number;
  answered: boolean;
  from: string | null;
  to: string;
  recordingUrl: string | null;
  /** The visit's utm_campaign: Salesforce adds the person to the Campaign of that name, when one exists. */
  campaign: string | null;
  ownerId: string | null;
}

/** A user of the CRM who may own its records. */
export interface CrmOwner {
  id: string;
  name: string;
  email: string | null;
}

/** A CRM that could not be reached, in words first: the technical reason after "The reason:". */
export const unreachable = (name: string, reason: string) => `${name} could not be reached from this server: check its network (a firewall, a proxy, its DNS). The reason: ${reason}`.slice(0, 400);

/** A record the CRM made or found for RingTrail. */
export interface CrmRecordRef {
  object: string;
  id: string;
}

/** Where the CRM's records of a connection are seen: its account, for links. */
export interface CrmAccount {
  /** In words, for the card: `HubSpot portal 12345678`. */
  name: string;
  /** A record's link by its object (contact, call, note, lead, task…): `{id}` replaced. */
  links: Record<string, string>;
}

export interface CrmClient {
  readonly crm: Crm;
  check(): Promise<CrmAccount>;
  ownerOf(email: string): Promise<string | null>;
  /** The CRM's users who may own records (HubSpot's owners, Salesforce's active users), at most 200: the card's choice of the default owner. */
  owners(): Promise<CrmOwner[]>;
  /** The person's object (a contact, or Salesforce's lead) by their id. */
  objectOf(personId: string): string;
  /** A kept person's id as the CRM has it now: Salesforce's converted Lead is its Contact; null when deleted. */
  personNow(personId: string): Promise<string | null>;
  person(p: CrmPerson): Promise<{ id: string; created: boolean }>;
  /** The activity, and what else was made or found with it (Salesforce's campaign member). */
  activity(a: CrmActivity, personId: string, knownId: string | null): Promise<{ id: string; created: boolean; also: CrmRecordRef[] }>;
}
