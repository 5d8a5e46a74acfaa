// The back end's users: an e-mail and a password, in one account. Knows nothing of HTTP.
import { z } from 'zod';
import type { Collections } from '../db/collections.ts';
import type { UserDoc } from './documents.ts';
import { hashPassword, oneTimePassword, UNMATCHABLE_HASH, verifyPassword } from './passwords.ts';

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
export async function createAccountIfMissing(c: Collections, name: string): Promise<boolean> {
  const { upsertedCount } = await c.accounts.updateOne({ _id: name }, { $setOnInsert: { name } }, { upsert: true });
  return upsertedCount > 0;
}

/** Creates a user of `accountId`, or sets the password of that account's user; answers the
 * password (a new one-time password when none is given). A username of another account is refused. */
export async function saveUser(c: Collections, accountId: string, username: string, password?: string): Promise<string> {
  if (!isEmail(username)) throw new UserError(`"${username}" is not an e-mail address`);
  if (!(await c.accounts.findOne({ _id: accountId }))) throw new UserError(`No account ${accountId}`);
  const _id = usernameKey(username);
  const existing = await c.users.findOne({ _id });
  if (existing && existing.accountId !== accountId) throw new UserError(`${_id} is a user of another account`);
  const chosen = password ?? oneTimePassword();
  // The same password again changes nothing: a fixture loaded twice leaves the user as it was.
  if (existing && (await verifyPassword(chosen, existing.passwordHash))) return chosen;
  await c.users.updateOne({ _id }, { $set: { accountId, passwordHash: await hashPassword(chosen) }, $setOnInsert: { createdAt: new Date() } }, { upsert: true });
  return chosen;
}

/**
 * The user whose password this is; null for an unknown user or a wrong password alike. An unknown
 * user's password is checked too, against a hash no password matches, so the answer takes as long
 * and does not tell who has an account.
 */
export async function checkPassword(c: Collections, username: string, password: string): Promise<UserDoc | null> {
  const user = await c.users.findOne({ _id: usernameKey(username) });
  const matches = await verifyPassword(password, user?.passwordHash ?? UNMATCHABLE_HASH);
  return user && matches ? user : null;
}
