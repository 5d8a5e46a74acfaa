// Links that let a person choose their password: an invitation to join an account with a role
// (7 days), or a password reset (1 hour by e-mail; 7 days when an owner or the operator makes it
// for a member). The token is 32 random bytes (256 bits) in the link's `token=`; only its SHA-256
// is stored, and a token is found by that digest: the lookup compares digests, so the time it
// takes tells nothing of a stored token (finding one whose digest starts like a guess's is finding
// a SHA-256 preimage). A link is used once: the first accept that marks it used wins, at the
// database. Knows nothing of HTTP.
import { utcMinute } from '../domains/dates.ts';
import { createHash, randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { isDuplicateKey } from '../db/writes.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import type { InvitationDoc, UserDoc, TeamCollections } from './documents.ts';
import { hashPassword } from './passwords.ts';
import type { Role } from './roles.ts';
import { Sessions } from './sessions.ts';

export const INVITATION_MS = 7 * 86400_000;
export const RESET_BY_MAIL_MS = 3600_000;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** The back end's page that opens a link: the token in the fragment, never sent to a server's log. */
export const linkUrl = (backEnd: string, token: string) => `${backEnd.replace(/\/?$/, '/')}#/accept?token=${token}`;

export interface NewLink {
  id: string;
  token: string;
  expiresAt: Date;
}

export interface LinkSpec {
  kind: InvitationDoc['kind'];
  accountId: string;
  username: string;
  role: Role;
  domains?: string[];
  createdBy: string;
  validMs?: number;
}

export class Invitations {
  constructor(private readonly c: TeamCollections) {}

  /** A new link; an earlier link of the same kind for the same person, not used yet, is revoked. */
  async create(spec: LinkSpec, now = new Date()): Promise<NewLink> {
    const { validMs = INVITATION_MS, ...fields } = spec;
    const token = randomBytes(32).toString('base64url');
    const stamp = spec.kind === 'reset' ? { passwordStamp: (await this.passwordStampOf(spec.accountId, spec.username)) ?? '' } : {};
    const doc: InvitationDoc = { _id: new ObjectId().toHexString(), tokenHash: digest(token), ...fields, ...stamp, createdAt: now, expiresAt: new Date(now.getTime() + validMs) };
    await this.c.invitations.updateMany({ accountId: spec.accountId, username: spec.username, kind: spec.kind, usedAt: { $exists: false }, revokedAt: { $exists: false } }, { $set: { revokedAt: now } });
    await this.c.invitations.insertOne(doc);
    return { id: doc._id, token, expiresAt: doc.expiresAt };
  }

  /** The account's invitations not used, revoked nor expired. */
  async pending(accountId: string, now = new Date()): Promise<InvitationDoc[]> {
    return this.c.invitations.find({ accountId, kind: 'invitation', usedAt: { $exists: false }, revokedAt: { $exists: false }, expiresAt: { $gt: now } }, { sort: { createdAt: -1 }, limit: 500 }).toArray();
  }

  async revoke(accountId: string, id: string, now = new Date()): Promise<InvitationDoc | null> {
    return this.c.invitations.findOneAndUpdate({ _id: id, accountId, usedAt: { $exists: false }, revokedAt: { $exists: false } }, { $set: { revokedAt: now } }, { returnDocument: 'after' });
  }

  /** Revokes every link of a member not used yet (the member is removed). */
  async revokeAllOf(accountId: string, username: string, now = new Date()): Promise<void> {
    await this.c.invitations.updateMany({ accountId, username, usedAt: { $exists: false }, revokedAt: { $exists: false } }, { $set: { revokedAt: now } });
  }

  /** The link a token opens, if it can still be used; otherwise a failure that says why. A reset
   * dies with its member's removal and with any change of their password since it was made. */
  async check(token: unknown, now = new Date()): Promise<InvitationDoc> {
    const link = await this.find(token);
    const problem = linkProblem(link, now);
    if (problem) throw problem;
    if (link!.kind === 'reset' && link!.passwordStamp !== undefined) {
      const stamp = await this.passwordStampOf(link!.accountId, link!.username);
      if (stamp === null) throw new ManageFailure(410, 'This link was for a member who has since been removed from the account');
      if (stamp !== link!.passwordStamp) throw new ManageFailure(410, 'This password reset link no longer works: the password was changed since it was made. Ask for a new one');
    }
    return link!;
  }

  /** A digest of the member's password hash as it is now; null when they are no member. */
  private async passwordStampOf(accountId: string, username: string): Promise<string | null> {
    const member = await this.c.users.findOne({ _id: username, accountId }, { projection: { passwordHash: 1 } });
    return member ? digest(`password:${member.passwordHash ?? ''}`) : null;
  }

  /**
   * Uses the link: the invited person becomes a member with this password, or the member's
   * password is replaced and every session of theirs ends. Answers the member, and the link's kind.
   */
  async accept(token: unknown, password: string, now = new Date()): Promise<{ member: UserDoc; kind: InvitationDoc['kind'] }> {
    const link = await this.check(token, now);
    const passwordHash = await hashPassword(password);
    // Marked used first, at the database: of two accepts at once, one wins.
    const used = await this.c.invitations.findOneAndUpdate({ _id: link._id, usedAt: { $exists: false }, revokedAt: { $exists: false }, expiresAt: { $gt: now } }, { $set: { usedAt: now } });
    if (!used) throw linkProblem(await this.c.invitations.findOne({ _id: link._id }), now)!;
    if (link.kind === 'reset') {
      const member = await this.c.users.findOneAndUpdate({ _id: link.username, accountId: link.accountId }, { $set: { passwordHash } }, { returnDocument: 'after' });
      if (!member) throw new ManageFailure(410, 'This link was for a member who has since been removed from the account');
      await new Sessions(this.c).endAll(member._id);
      return { member, kind: link.kind };
    }
    const member: UserDoc = { _id: link.username, accountId: link.accountId, passwordHash, role: link.role, ...(link.domains ? { domains: link.domains } : {}), createdAt: now };
    try {
      await this.c.users.insertOne(member);
    } catch (err) {
      if (isDuplicateKey(err)) throw new ManageFailure(409, `${link.username} already has a login: sign in instead`);
      throw err;
    }
    return { member, kind: link.kind };
  }

  private async find(token: unknown): Promise<InvitationDoc | null> {
    if (typeof token !== 'string' || !/^[\w-]{20,100}$/.test(token)) return null;
    return this.c.invitations.findOne({ tokenHash: digest(token) });
  }
}

const what = (link: InvitationDoc) => (link.kind === 'invitation' ? 'This invitation' : 'This password reset link');

/** Why a link cannot be used, or null when it can: each case said, never a 500. */
function linkProblem(link: InvitationDoc | null, now: Date): ManageFailure | null {
  if (!link) return new ManageFailure(404, 'This link is not valid: check that it was copied whole, or ask for a new one');
  if (link.revokedAt) return new ManageFailure(410, `${what(link)} was revoked: ask for a new one`);
  if (link.usedAt) return new ManageFailure(410, `${what(link)} was already used: ${link.kind === 'invitation' ? 'sign in with the password chosen then' : 'ask for a new one'}`);
  if (link.expiresAt <= now) return new ManageFailure(410, `${what(link)} expired on ${utcMinute(link.expiresAt)}: ask for a new one`);
  return null;
}
