// Sign-up: a new account and its first user, its owner, in one step. Knows nothing of HTTP.
import { z } from 'zod';
import { isDuplicateKey } from '../db/writes.ts';
import type { UserDoc, TeamCollections } from './documents.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { hashPassword } from './passwords.ts';
import { emailAddress, usernameKey } from './users.ts';
import { chosenPassword } from './password-rules.ts';
import { valid } from '../http/manage-validate.ts';

export const signUpBody = z.object({
  account: z.string().trim().min(2, 'must be at least 2 characters').max(100),
  username: emailAddress,
  password: chosenPassword,
});

/** The account is claimed first (its name is its `_id`), then the user: a taken name or e-mail
 * answers 409, and a taken e-mail gives the new account back. */
export async function signUp(c: TeamCollections, body: unknown, now = new Date()): Promise<UserDoc> {
  const { account, username, password } = valid(signUpBody, body);
  try {
    await c.accounts.insertOne({ _id: account, name: account });
  } catch (err) {
    if (isDuplicateKey(err)) throw new ManageFailure(409, 'That account name is not available: choose another');
    throw err;
  }
  const user: UserDoc = { _id: usernameKey(username), accountId: account, passwordHash: await hashPassword(password), role: 'owner', createdAt: now };
  try {
    await c.users.insertOne(user);
  } catch (err) {
    await c.accounts.deleteOne({ _id: account });
    if (isDuplicateKey(err)) throw new ManageFailure(409, 'That e-mail address already has an account: sign in instead');
    throw err;
  }
  return user;
}
