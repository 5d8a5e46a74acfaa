// The origins a domain's browser doors refused lately: the back end's install check shows them, each
// with one action to allow it, so a site owner who pasted the tag on a page the domain does not yet
// allow sees why no view arrives. Kept on the domain document: the last few origins, each counted.
//
// Anyone with the public key (every page shows it) can send any Origin, so the list learns only what
// a browser could send: a well-formed origin (scheme, host, port; at most 255 characters, in the form
// browsers write it), and at most a few new ones per domain and minute, so a flood of forged ones
// cannot push the real one out; each new one is logged once, in one short line.
import type { DomainDoc, DomainCollections } from '../domains/documents.ts';
import type { Logger } from '../logger.ts';
import { MAX_ORIGIN_LENGTH } from './origin.ts';

/** Origins kept per domain: the newest replace the oldest. */
export const REFUSED_ORIGINS_KEPT = 10;
/** New origins a domain's list takes in a minute; more are counted nowhere (still refused). */
export const NEW_REFUSED_ORIGINS_PER_MINUTE = 3;

/** An Origin header as a browser writes it: http(s), a host, a port only when not the default. */
function isWellFormedOrigin(origin: string): boolean {
  // Its own origin once parsed: a path, a query, credentials, a default port or capitals are not.
  if (origin.length > MAX_ORIGIN_LENGTH || !/^https?:\/\//.test(origin)) return false;
  try {
    return new URL(origin).origin === origin;
  } catch {
    return false;
  }
}

export type RefusedOrigin = NonNullable<DomainDoc['refusedOrigins']>[number];

/** Counts a refusal of `origin`; the first one of an origin is logged at warn, saying what to change. */
export async function noteRefusedOrigin(c: DomainCollections, domain: DomainDoc, origin: string, log: Logger, now = new Date()): Promise<void> {
  if (!origin || !isWellFormedOrigin(origin)) return; // none (not a browser's page), or one no browser sends
  const counted = await c.domains.updateOne({ _id: domain._id, 'refusedOrigins.origin': origin }, { $inc: { 'refusedOrigins.$.count': 1 }, $set: { 'refusedOrigins.$.lastAt': now } });
  if (counted.matchedCount > 0) return;
  const entry: RefusedOrigin = { origin, count: 1, firstAt: now, lastAt: now };
  // Added only while fewer than NEW_REFUSED_ORIGINS_PER_MINUTE were added in the last minute: one
  // atomic update, so simultaneous requests cannot pass the count together.
  const minuteAgo = new Date(now.getTime() - 60_000);
  const addedLately = { $size: { $filter: { input: { $ifNull: ['$refusedOrigins', []] }, cond: { $gt: ['$$this.firstAt', minuteAgo] } } } };
  const added = await c.domains.updateOne(
    { _id: domain._id, 'refusedOrigins.origin': { $ne: origin }, $expr: { $lt: [addedLately, NEW_REFUSED_ORIGINS_PER_MINUTE] } },
    // The ones seen last are kept: a real origin that keeps sending keeps its place, whatever
    // forged ones came once since.
    { $push: { refusedOrigins: { $each: [entry], $sort: { lastAt: 1 }, $slice: -REFUSED_ORIGINS_KEPT } } },
  );
  if (added.modifiedCount > 0) log.warn({ domain: domain.name, origin }, 'refused the tracker from an origin the domain does not allow (back end: Settings, Install)');
}
