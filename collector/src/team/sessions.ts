// Signed-in sessions of the back end: a random token in an HttpOnly cookie, stored as its SHA-256,
// with a CSRF token that every state-changing request must send back in a header. Expired
// sessions are removed by a TTL index. Each keeps the browser and address it signed in from and
// when it was last used, so its user can see it and end it.
import { createHash, randomBytes } from 'node:crypto';
import type { SessionDoc, UserDoc, TeamCollections } from './documents.ts';

export const SESSION_COOKIE = 'rt_session';
export const SESSION_MS = 12 * 3600_000;
/** `lastSeenAt` is written at most once a minute per session: not a write per request. */
const SEEN_EVERY_MS = 60_000;
/** The longest User-Agent kept: the sessions list names the browser, not a novel. */
const MAX_USER_AGENT = 300;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export class Sessions {
  constructor(private readonly c: TeamCollections) {}

  /** A new session of `user`: the cookie's token, and the session as stored. */
  async open(user: UserDoc, from: { ip?: string; userAgent?: string } = {}, now = new Date()): Promise<{ token: string; session: SessionDoc }> {
    const token = randomBytes(32).toString('base64url');
    const session: SessionDoc = {
      _id: digest(token),
      username: user._id,
      accountId: user.accountId,
      csrfToken: randomBytes(24).toString('base64url'),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_MS),
      lastSeenAt: now,
      ...(from.ip ? { ip: from.ip } : {}),
      ...(from.userAgent ? { userAgent: from.userAgent.slice(0, MAX_USER_AGENT) } : {}),
    };
    await this.c.sessions.insertOne(session);
    await this.c.users.updateOne({ _id: user._id }, { $set: { lastSignInAt: now } });
    return { token, session };
  }

  /** The session of a cookie's token while it lasts; null otherwise. */
  async of(token: string | undefined, now = new Date()): Promise<SessionDoc | null> {
    if (!token) return null;
    return this.c.sessions.findOne({ _id: digest(token), expiresAt: { $gt: now } });
  }

  /** Notes that the session was used now (to the minute). */
  async seen(session: SessionDoc, now = new Date()): Promise<void> {
    if (session.lastSeenAt && now.getTime() - session.lastSeenAt.getTime() < SEEN_EVERY_MS) return;
    await this.c.sessions.updateOne({ _id: session._id }, { $set: { lastSeenAt: now } });
  }

  async close(session: SessionDoc): Promise<void> {
    await this.c.sessions.deleteOne({ _id: session._id });
  }

  /** The user's sessions that last, the latest used first. */
  async ofUser(username: string, now = new Date()): Promise<SessionDoc[]> {
    return this.c.sessions.find({ username, expiresAt: { $gt: now } }, { sort: { lastSeenAt: -1 }, limit: 200 }).toArray();
  }

  /** Ends one of the user's sessions by its id; false when there is none. */
  async end(username: string, id: string): Promise<boolean> {
    return (await this.c.sessions.deleteOne({ _id: id, username })).deletedCount > 0;
  }

  /** Ends every session of the user but `keep` (its current one), or all of them. */
  async endAll(username: string, keep?: SessionDoc): Promise<number> {
    return (await this.c.sessions.deleteMany({ username, ...(keep ? { _id: { $ne: keep._id } } : {}) })).deletedCount;
  }
}
