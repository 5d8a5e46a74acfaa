// An account's members: who they are, inviting one, changing a role or the domains one sees, and
// removing one. A change ends the member's sessions at once (their next request gets 401). The
// last owner can be neither removed nor demoted: the change is made, the owners counted, and the
// change undone if none is left. Two owners demoting each other at once may both be refused; never
// can both pass. Knows nothing of HTTP.
import { z } from 'zod';
import { ManageFailure } from '../http/manage-envelope.ts';
import type { UserDoc, TeamCollections } from './documents.ts';
import { Invitations, type NewLink } from './invitations.ts';
import { ROLES } from './roles.ts';
import { Sessions } from './sessions.ts';
import { emailAddress, usernameKey } from './users.ts';
import type { DomainCollections } from '../domains/documents.ts';

const domainList = z.array(z.string().trim().toLowerCase().min(1).max(253)).max(1000).optional();
export const memberInvite = z.object({ username: emailAddress, role: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }), domains: domainList });
export const memberChange = z
  .object({ role: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }).optional(), domains: domainList.nullable() })
  .strict()
  .refine((change) => change.role !== undefined || change.domains !== undefined, 'name a role, or domains (null: every domain)');

export function memberView(member: UserDoc) {
  return { username: member._id, role: member.role, domains: member.domains ?? null, lastSignInAt: member.lastSignInAt?.toISOString() ?? null, createdAt: member.createdAt.toISOString() };
}

export class Members {
  readonly links: Invitations;
  private readonly sessions: Sessions;

  constructor(private readonly c: TeamCollections & DomainCollections) {
    this.links = new Invitations(c);
    this.sessions = new Sessions(c);
  }

  list(accountId: string): Promise<UserDoc[]> {
    return this.c.users.find({ accountId }, { sort: { _id: 1 }, limit: 1000 }).toArray();
  }

  /** An invitation link for `username`, who must have no login yet. */
  async invite(accountId: string, by: string, invite: z.infer<typeof memberInvite>): Promise<NewLink> {
    const username = usernameKey(invite.username);
    const existing = await this.c.users.findOne({ _id: username }, { projection: { accountId: 1 } });
    if (existing?.accountId === accountId) throw new ManageFailure(409, `${username} is already a member: change their role instead`);
    // Which account it is stays unsaid: an address is not a way to learn other accounts' names.
    if (existing) throw new ManageFailure(409, `${username} is not available: ask them to use another address`);
    await this.checkDomains(accountId, invite.domains);
    return this.links.create({ kind: 'invitation', accountId, username, role: invite.role, ...(invite.domains ? { domains: invite.domains } : {}), createdBy: by });
  }

  /** A new role or domains for a member; their sessions end. */
  async change(accountId: string, username: string, change: z.infer<typeof memberChange>): Promise<UserDoc> {
    const member = await this.member(accountId, username);
    await this.checkDomains(accountId, change.domains ?? undefined);
    const set: Partial<UserDoc> = { ...(change.role ? { role: change.role } : {}), ...(change.domains ? { domains: change.domains } : {}) };
    const updated = await this.c.users.findOneAndUpdate({ _id: member._id, accountId }, { $set: set, ...(change.domains === null ? { $unset: { domains: 1 as const } } : {}) }, { returnDocument: 'after' });
    if (!updated) throw notAMember(username);
    if (member.role === 'owner' && updated.role !== 'owner' && !(await this.ownersLeft(accountId))) {
      await this.c.users.updateOne({ _id: member._id, accountId }, { $set: { role: 'owner' } });
      throw lastOwner();
    }
    await this.sessions.endAll(member._id);
    return updated;
  }

  /** Removes a member (and ends their sessions); never the last owner. */
  async remove(accountId: string, username: string): Promise<void> {
    const member = await this.member(accountId, username);
    if (member.role === 'owner') {
      // Demoted first, so that the owners counted are those that will remain.
      await this.c.users.updateOne({ _id: member._id, accountId }, { $set: { role: 'agent' } });
      if (!(await this.ownersLeft(accountId))) {
        await this.c.users.updateOne({ _id: member._id, accountId }, { $set: { role: 'owner' } });
        throw lastOwner();
      }
    }
    await this.c.users.deleteOne({ _id: member._id, accountId });
    await this.sessions.endAll(member._id);
    await this.links.revokeAllOf(accountId, member._id);
  }

  /** A link with which the member chooses a new password (their password works until then). */
  async resetLink(accountId: string, username: string, by: string, validMs?: number): Promise<NewLink> {
    const member = await this.member(accountId, username);
    return this.links.create({ kind: 'reset', accountId, username: member._id, role: member.role, createdBy: by, ...(validMs ? { validMs } : {}) });
  }

  async member(accountId: string, username: string): Promise<UserDoc> {
    const member = await this.c.users.findOne({ _id: usernameKey(username), accountId });
    if (!member) throw notAMember(username);
    return member;
  }

  private async ownersLeft(accountId: string): Promise<number> {
    return this.c.users.countDocuments({ accountId, role: 'owner' });
  }

  /** Domains given to a member are the account's own. */
  private async checkDomains(accountId: string, domains: string[] | undefined): Promise<void> {
    if (!domains?.length) return;
    const found = await this.c.domains.countDocuments({ _id: { $in: domains }, accountId });
    if (found !== new Set(domains).size) throw new ManageFailure(400, 'domains: name only domains of this account');
  }
}

const notAMember = (username: string) => new ManageFailure(404, `${username} is not a member of this account`);
const lastOwner = () => new ManageFailure(409, 'The last owner of an account can be neither removed nor demoted: make another member an owner first');

