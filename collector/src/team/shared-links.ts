// Read-only report links: an owner or admin shares one domain's overview (sources, keywords, campaigns,
// landing pages, calls per day; no caller numbers, no call pages, no settings) with someone who has no login, such as
// an agency's client. The link's token (32 random bytes) is stored as its SHA-256; a link may ask
// for a password, is revocable, and counts its openings. Knows nothing of HTTP.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ManageFailure } from '../http/manage-envelope.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { SharedLinkDoc, TeamCollections } from './documents.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { MAX_PASSWORD } from './password-rules.ts';

/** A domain has at most this many links that work: a list a person can read. */
const MAX_LINKS_PER_DOMAIN = 100;

export const sharedLinkBody = z.object({
  label: z.string().trim().max(100).default(''),
  /** A password the client types before the report opens (none: the link alone opens it). */
  password: z.string().min(8, 'must be at least 8 characters').max(MAX_PASSWORD).optional(),
});

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export const sharedUrl = (origin: string, token: string) => `${origin}/shared/${token}`;

export function sharedLinkView(link: SharedLinkDoc) {
  return { id: link._id, label: link.label, passwordProtected: Boolean(link.passwordHash), createdBy: link.createdBy, createdAt: link.createdAt.toISOString(), openings: link.openings, lastOpenedAt: link.lastOpenedAt?.toISOString() ?? null };
}

export class SharedLinks {
  constructor(private readonly c: TeamCollections) {}

  async create(domain: DomainDoc, by: string, body: z.infer<typeof sharedLinkBody>, now = new Date()): Promise<{ link: SharedLinkDoc; token: string }> {
    if ((await this.c.sharedLinks.countDocuments({ domainId: domain._id, revokedAt: { $exists: false } })) >= MAX_LINKS_PER_DOMAIN) throw new ManageFailure(409, `A domain has at most ${MAX_LINKS_PER_DOMAIN} shared links: revoke one first`);
    const token = randomBytes(32).toString('base64url');
    const link: SharedLinkDoc = {
      _id: randomBytes(9).toString('base64url'),
      tokenHash: digest(token),
      accountId: domain.accountId,
      domainId: domain._id,
      label: body.label,
      ...(body.password ? { passwordHash: await hashPassword(body.password) } : {}),
      createdBy: by,
      createdAt: now,
      openings: 0,
    };
    await this.c.sharedLinks.insertOne(link);
    return { link, token };
  }

  /** The domain's links that work, newest first. */
  list(domainId: string): Promise<SharedLinkDoc[]> {
    return this.c.sharedLinks.find({ domainId, revokedAt: { $exists: false } }, { sort: { createdAt: -1 }, limit: MAX_LINKS_PER_DOMAIN }).toArray();
  }

  async revoke(domainId: string, id: string, now = new Date()): Promise<SharedLinkDoc | null> {
    return this.c.sharedLinks.findOneAndUpdate({ _id: id, domainId, revokedAt: { $exists: false } }, { $set: { revokedAt: now } });
  }

  /** The link a token opens while it is not revoked; null otherwise. */
  async of(token: string): Promise<SharedLinkDoc | null> {
    // Found by its digest, as invitations are (invitations.ts says why that leaks nothing by timing).
    if (!/^[\w-]{20,100}$/.test(token)) return null;
    return this.c.sharedLinks.findOne({ tokenHash: digest(token), revokedAt: { $exists: false } });
  }

  async opened(link: SharedLinkDoc, now = new Date()): Promise<void> {
    await this.c.sharedLinks.updateOne({ _id: link._id }, { $inc: { openings: 1 }, $set: { lastOpenedAt: now } });
  }

  checkPassword(link: SharedLinkDoc, password: string): Promise<boolean> {
    return link.passwordHash ? verifyPassword(password, link.passwordHash) : Promise.resolve(true);
  }

  /** The cookie that says a browser typed the link's password: keyed by its stored hash, so a new
   * password or a revoked link makes it worthless, and nothing else need be stored. */
  pass(link: SharedLinkDoc): string {
    return createHmac('sha256', link.passwordHash ?? '').update(link._id).digest('base64url');
  }

  unlocked(link: SharedLinkDoc, cookie: string | undefined): boolean {
    if (!link.passwordHash) return true;
    const expected = Buffer.from(this.pass(link));
    return cookie !== undefined && cookie.length === expected.length && timingSafeEqual(Buffer.from(cookie), expected);
  }
}
