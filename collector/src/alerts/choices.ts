// Who is told of what: each person's alert choices per domain they see, over their role's
// defaults. Unless they choose otherwise, an account's owners get missed-call alerts at once (and texts
// received, which follow the missed calls' choice until one is made for them), and
// owners and admins the tracking warnings, so that a new install with SMTP_URL set tells someone;
// others get nothing.
import { z } from 'zod';
import type { DomainDoc } from '../domains/documents.ts';
import type { UserDoc, TeamCollections } from '../team/documents.ts';
import { maySee, type Role } from '../team/roles.ts';
import { CALL_ALERTS, DELIVERIES, type AlertChoices, type AlertCollections } from './documents.ts';

export function defaultChoices(role: Role): AlertChoices {
  const owner = role === 'owner';
  return { missedCall: owner ? 'immediate' : 'off', newLead: 'off', firstCaller: 'off', spamBlocked: 'off', missedOutsideHours: false, warnings: owner || role === 'admin', weekly: false, monthly: false };
}

/** A change of some choices, as PUT /manage/api/domains/{domain}/alerts takes it. */
export const alertChoicesBody = z
  .object({
    ...Object.fromEntries(CALL_ALERTS.map((alert) => [alert, z.enum(DELIVERIES, { error: `must be one of ${DELIVERIES.join(', ')}` }).optional()])),
    missedOutsideHours: z.boolean().optional(),
    warnings: z.boolean().optional(),
    weekly: z.boolean().optional(),
    monthly: z.boolean().optional(),
  })
  .strict() as z.ZodType<Partial<AlertChoices>>;

const choiceKey = (username: string, domainId: string) => `${username}|${domainId}`;

export class AlertChoicesStore {
  constructor(private readonly c: AlertCollections & TeamCollections) {}

  /** A person's choices for a domain. */
  async of(user: UserDoc, domainId: string): Promise<AlertChoices> {
    const doc = await this.c.alertChoices.findOne({ _id: choiceKey(user._id, domainId) });
    return merged(user.role, doc);
  }

  async set(user: Pick<UserDoc, '_id' | 'role'>, domainId: string, change: Partial<AlertChoices>): Promise<AlertChoices> {
    const doc = await this.c.alertChoices.findOneAndUpdate(
      { _id: choiceKey(user._id, domainId) },
      { $set: { ...change, updatedAt: new Date() }, $setOnInsert: { username: user._id, domainId } },
      { upsert: true, returnDocument: 'after' },
    );
    return merged(user.role, doc);
  }

  /** The account's members who see the domain, each with their choices for it. */
  async recipients(domain: Pick<DomainDoc, '_id' | 'accountId'>): Promise<{ user: UserDoc; choices: AlertChoices }[]> {
    const users = (await this.c.users.find({ accountId: domain.accountId }).toArray()).filter((user) => maySee(user, domain._id));
    const docs = await this.c.alertChoices.find({ _id: { $in: users.map((user) => choiceKey(user._id, domain._id)) } }).toArray();
    const byUser = new Map(docs.map((doc) => [doc.username, doc]));
    return users.map((user) => ({ user, choices: merged(user.role, byUser.get(user._id) ?? null) }));
  }
}

function merged(role: Role, doc: Partial<AlertChoices> | null): AlertChoices {
  const choices = defaultChoices(role);
  for (const key of [...Object.keys(choices), 'newText'] as (keyof AlertChoices)[]) if (doc?.[key] !== undefined) (choices as unknown as Record<string, unknown>)[key] = doc[key];
  return choices;
}
