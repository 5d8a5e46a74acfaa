// Signed-in sessions of the back end: a random token in an HttpOnly cookie, stored as its SHA-256,
// with a CSRF token that every state-changing request must send back in a header. Expired
// sessions are removed by a TTL index.
import { createHash, randomBytes } from 'node:crypto';
import type { Collections } from '../db/collections.ts';
import type { SessionDoc, UserDoc } from './documents.ts';

export const SESSION_COOKIE = 'rt_session';
export const SESSION_MS = 12 * 3600_000;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export class Sessions {
  constructor(private readonly c: Collections) {}

  /** A new session of `user`: the cookie's token, and the session as stored. */
  async open(user: UserDoc, now = new Date()): Promise<{ token: string; session: SessionDoc }> {
    const token = randomBytes(32).toString('base64url');
    const session: SessionDoc = {
      _id: digest(token),
      username: user._id,
      accountId: user.accountId,
      csrfToken: randomBytes(24).toString('base64url'),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_MS),
    };
    await this.c.sessions.insertOne(session);
    return { token, session };
  }

  /** The session of a cookie's token while it lasts; null otherwise. */
  async of(token: string | undefined, now = new Date()): Promise<SessionDoc | null> {
    if (!token) return null;
    return this.c.sessions.findOne({ _id: digest(token), expiresAt: { $gt: now } });
  }

  async close(session: SessionDoc): Promise<void> {
    await this.c.sessions.deleteOne({ _id: session._id });
  }
}
