// The back end's users: an e-mail and a password, in one account, with a role (manage/roles.ts). Knows nothing of HTTP.
import type { UpdateFilter } from 'mongodb';
import { z } from 'zod';
import type { UserDoc, TeamCollections } from './documents.ts';
import { hashPassword, UNMATCHABLE_HASH, verifyPassword } from './passwords.ts';
import type { Role } from './roles.ts';

export class UserError extends Error {}

/** Usernames are e-mails, compared without case. */
export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}

/** The longest address SMTP carries (RFC 5321: a 256-octet path, less its angle brackets). */
export const MAX_EMAIL_LENGTH = 254;

/** An e-mail address, wherever one is named (sign-up, fixtures, create-user): its length first, so
 * that the pattern never reads one longer than SMTP carries. (A pattern of our own,
 * `[^\s@]+\.[^\s@]+$`, backtracked over every dot of a long address.) */
export const emailAddress = z.string().max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`).pipe(z.email('must be an e-mail address'));

export function isEmail(username: string): boolean {
  return emailAddress.safeParse(username.trim()).success;
}

/** Makes the account `name` unless it exists; true when it was made. */
export async function createAccountIfMissing(c: TeamCollections, name: string): Promise<boolean> {
  const { upsertedCount } = await c.accounts.updateOne({ _id: name }, { $setOnInsert: { name } }, { upsert: true });
  return upsertedCount > 0;
}

/** A member as a fixture names it: without a role, an owner (fixtures made before roles). */
export interface MemberSpec {
  username: string;
  password?: string;
  role?: Role;
  domains?: string[];
}

/** Creates a member of `accountId`, or sets that account's member's role, domains and password (a
 * member without a password signs in once given a reset link: `npm run admin -- reset-password`).
 * A username of another account is refused. */
export async function saveUser(c: TeamCollections, accountId: string, member: MemberSpec): Promise<void> {
  const { username, password, role = 'owner', domains } = member;
  if (!isEmail(username)) throw new UserError(`"${username}" is not an e-mail address`);
  if (!(await c.accounts.findOne({ _id: accountId }))) throw new UserError(`No account ${accountId}`);
  const _id = usernameKey(username);
  const existing = await c.users.findOne({ _id });
  if (existing && existing.accountId !== accountId) throw new UserError(`${_id} is a user of another account`);
  const set: Partial<UserDoc> = { accountId, role, ...(domains ? { domains: domains.map((d) => d.toLowerCase()) } : {}) };
  // The same password again is not hashed again: a fixture loaded twice leaves the user as it was.
  if (password !== undefined && !(existing?.passwordHash && (await verifyPassword(password, existing.passwordHash)))) set.passwordHash = await hashPassword(password);
  const update: UpdateFilter<UserDoc> = { $set: set, $setOnInsert: { createdAt: new Date() } };
  if (!domains) update.$unset = { domains: 1 };
  await c.users.updateOne({ _id }, update, { upsert: true });
}

/**
 * The user whose password this is; null for an unknown user or a wrong password alike. An unknown
 * user's password is checked too, against a hash no password matches, so the answer takes as long
 * and does not tell who has an account.
 */
export async function checkPassword(c: TeamCollections, username: string, password: string): Promise<UserDoc | null> {
  const user = await c.users.findOne({ _id: usernameKey(username) });
  const matches = await verifyPassword(password, user?.passwordHash ?? UNMATCHABLE_HASH);
  return user && matches ? user : null;
}
