// The audit trail: every change made in the back end or the management API, who made it, when and
// from which address. Append-only: this file is the only one that touches the collection, and it
// only inserts and reads. Entries name things by name (a domain, a member, a key's kind, never the
// key), so they outlive what they name. Written by the code that checks the role (access.ts).
import type { Filter } from 'mongodb';
import type { AuditDoc, TeamCollections } from './documents.ts';

/** Entries a page of the Activity screen shows. */
export const ACTIVITY_PAGE = 100;

export interface AuditFilter {
  accountId: string;
  /** Only these domains' entries (an admin's); absent: every entry of the account. */
  domains?: string[];
  username?: string;
  kind?: string;
  /** Entries before this time: the next page. */
  before?: Date;
}

export class AuditLog {
  constructor(private readonly c: TeamCollections) {}

  async write(entry: Omit<AuditDoc, 'kind' | 'at'> & { at?: Date }): Promise<void> {
    await this.c.auditLog.insertOne({ ...entry, at: entry.at ?? new Date(), kind: entry.action.split('.')[0]! });
  }

  /** Newest first, a page at a time (`before` the last one shown). */
  async list(filter: AuditFilter, limit = ACTIVITY_PAGE): Promise<AuditDoc[]> {
    const query: Filter<AuditDoc> = { accountId: filter.accountId };
    if (filter.domains) query.domain = { $in: filter.domains };
    if (filter.username) query.username = filter.username;
    if (filter.kind) query.kind = filter.kind;
    if (filter.before) query.at = { $lt: filter.before };
    return this.c.auditLog.find(query, { sort: { at: -1 }, limit, projection: { _id: 0 } }).toArray();
  }
}

export function entryView(entry: AuditDoc) {
  return { at: entry.at.toISOString(), username: entry.username, action: entry.action, kind: entry.kind, ...(entry.domain ? { domain: entry.domain } : {}), ip: entry.ip, ...(entry.details ? { details: entry.details } : {}) };
}
