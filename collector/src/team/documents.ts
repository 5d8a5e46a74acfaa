// Accounts, their users and the back end's sessions: the shapes and indexes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { CarrierConnectionDoc } from '../carriers/documents.ts';
import type { IndexPlan } from '../db/index-plan.ts';
import type { WebhookEvent } from '../webhooks/events.ts';
import type { Role } from './roles.ts';

export interface AccountDoc {
  _id: string;
  name: string;
  callCenterApiKeyHash?: string;
  webhookUrl?: string;
  /** Standard Webhooks secret (`whsec_<base64>`) signing every push; stored as is, since signing needs it. */
  webhookSecret?: string;
  /** Ours (webhooks/events.ts): pushes asked for beside view, cart and order; absent: none. */
  webhookEvents?: WebhookEvent[];
  /** Ours (carriers/connections.ts): the account's carrier account, its secret sealed. */
  carrier?: CarrierConnectionDoc;
  /** Ours (alerts/rule-mails.ts): who used a rule mail's unsubscribe link: no rule of the account
   * mails them again, a rule deleted and made again included (the last 1,000). */
  ruleMailsStopped?: string[];
  /** Ours (dialling/, issue 79): where the account's calls and texts may go, and how many an hour;
   * absent: its domains' countries, no special range, the default limits. */
  dialling?: AccountDialling;
}

/** An account's dialling rules as an owner set them (dialling/settings.ts reads and writes them). */
export interface AccountDialling {
  /** ISO country codes; absent: the countries of the account's domains. */
  countries?: string[];
  /** Special ranges allowed (dialling/rules.ts SPECIAL_RANGES). */
  allowed?: string[];
  /** Per hour; absent: dialling/limits.ts DEFAULT_DIAL_LIMITS. */
  limits?: { callsPerMember?: number; callsPerAccount?: number; textsPerMember?: number; textsPerAccount?: number };
}

/** A user of the back end (manage/users.ts); `_id` = the e-mail, lower case. */
export interface UserDoc {
  _id: string;
  accountId: string;
  /** scrypt (manage/passwords.ts); the password itself is never stored nor logged. Absent until
   * the member chooses one (a fixture's member without a password). */
  passwordHash?: string;
  /** What the member may do (manage/roles.ts); set to owner for users stored before roles (house/migrations.ts). */
  role: Role;
  /** The account's domains the member may see; absent: every domain (an owner or admin not limited). */
  domains?: string[];
  createdAt: Date;
  lastSignInAt?: Date;
  /** Ours (flows/, issue 65): the number a ring group rings for this member (canonical), set by
   * themselves; absent: none, and their ring groups skip them. */
  phone?: string;
  /** Ours (flows/): false while the member has switched themselves off; absent: available. */
  available?: boolean;
}

/** A signed-in session (manage/sessions.ts); `_id` = SHA-256 of the cookie's token. */
export interface SessionDoc {
  _id: string;
  username: string;
  accountId: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
  /** The browser's User-Agent and the address it signed in from, shown in the user's sessions. */
  userAgent?: string;
  ip?: string;
  /** The last request of this session, to the minute. */
  lastSeenAt?: Date;
}

/** A link that lets a person choose a password (manage/invitations.ts): an invitation to join the
 * account with a role, or a reset of a member's password. Only the token's SHA-256 is stored. */
export interface InvitationDoc {
  _id: string;
  tokenHash: string;
  kind: 'invitation' | 'reset';
  accountId: string;
  username: string;
  role: Role;
  domains?: string[];
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt?: Date;
  revokedAt?: Date;
  /** A reset: a digest of the member's password hash when it was made. The link dies once the
   * password changes (by any way), so a link mailed before a change cannot undo it. */
  passwordStamp?: string;
}

/** One change made in the back end or the management API (manage/audit.ts): written once, never
 * changed nor deleted, and naming things by name so that it outlives them. */
export interface AuditDoc {
  accountId: string;
  at: Date;
  username: string;
  ip: string;
  /** `<kind>.<verb>`, e.g. `key.rotate`; the kind is what the Activity screen filters by. */
  action: string;
  kind: string;
  domain?: string;
  details?: Record<string, unknown>;
}

/** A read-only report link of one domain (manage/shared-links.ts); `_id` = its public handle. */
export interface SharedLinkDoc {
  _id: string;
  tokenHash: string;
  accountId: string;
  domainId: string;
  label: string;
  /** scrypt, when the link asks for a password. */
  passwordHash?: string;
  createdBy: string;
  createdAt: Date;
  revokedAt?: Date;
  openings: number;
  lastOpenedAt?: Date;
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const teamIndexes: IndexPlan = {
  // Sessions end by themselves.
  sessions: [[{ expiresAt: 1 }, { expireAfterSeconds: 0 }], [{ username: 1 }]],
  users: [[{ accountId: 1 }]],
  // A used, revoked or expired link still says which for 30 days, then is gone.
  invitations: [[{ tokenHash: 1 }, { unique: true }], [{ accountId: 1, kind: 1 }], [{ expiresAt: 1 }, { expireAfterSeconds: 30 * 86400 }]],
  auditLog: [[{ accountId: 1, at: -1 }], [{ accountId: 1, domain: 1, at: -1 }]],
  sharedLinks: [[{ tokenHash: 1 }, { unique: true }], [{ domainId: 1 }]],
  // A Twilio request's signature is checked with the token of the account connected to its AccountSid.
  accounts: [[{ 'carrier.accountSid': 1 }, { sparse: true }]],
};

/** The team family's collections, as its services receive them. */
export interface TeamCollections {
  accounts: Collection<AccountDoc>;
  users: Collection<UserDoc>;
  sessions: Collection<SessionDoc>;
  invitations: Collection<InvitationDoc>;
  auditLog: Collection<AuditDoc>;
  sharedLinks: Collection<SharedLinkDoc>;
}

export function teamCollections(db: Db): TeamCollections {
  return collectionsNamed<TeamCollections>(db, { accounts: 'accounts', users: 'users', sessions: 'sessions', invitations: 'invitations', auditLog: 'audit_log', sharedLinks: 'shared_links' });
}
