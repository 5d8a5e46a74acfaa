// Accounts, their users and the back end's sessions: the shapes and indexes of their documents (db/collections.ts gathers every family's).
import type { IndexPlan } from '../db/index-plan.ts';
import type { WebhookEvent } from '../webhooks/events.ts';

export interface AccountDoc {
  _id: string;
  name: string;
  callCenterApiKeyHash?: string;
  webhookUrl?: string;
  /** Standard Webhooks secret (`whsec_<base64>`) signing every push; stored as is, since signing needs it. */
  webhookSecret?: string;
  /** Ours (webhooks/events.ts): pushes asked for beside view, cart and order; absent: none. */
  webhookEvents?: WebhookEvent[];
}

/** A user of the back end (manage/users.ts); `_id` = the e-mail, lower case. */
export interface UserDoc {
  _id: string;
  accountId: string;
  /** scrypt (manage/passwords.ts); the password itself is never stored nor logged. */
  passwordHash: string;
  createdAt: Date;
}

/** A signed-in session (manage/sessions.ts); `_id` = SHA-256 of the cookie's token. */
export interface SessionDoc {
  _id: string;
  username: string;
  accountId: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const manageIndexes: IndexPlan = {
  // Sessions end by themselves.
  sessions: [[{ expiresAt: 1 }, { expireAfterSeconds: 0 }]],
};
