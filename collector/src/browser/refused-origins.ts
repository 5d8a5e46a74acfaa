// The origins a domain's browser doors refused lately: the back end's install check shows them, each
// with one action to allow it, so a site owner who pasted the tag on a page the domain does not yet
// allow sees why no view arrives. Kept on the domain document: the last few origins, each counted.
import type { Collections } from '../db/collections.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { Logger } from '../logger.ts';

/** Origins kept per domain: the newest replace the oldest. */
export const REFUSED_ORIGINS_KEPT = 10;

export type RefusedOrigin = NonNullable<DomainDoc['refusedOrigins']>[number];

/** Counts a refusal of `origin`; the first one of an origin is logged at warn, saying what to change. */
export async function noteRefusedOrigin(c: Collections, domain: DomainDoc, origin: string, log: Logger, now = new Date()): Promise<void> {
  if (!origin) return; // no Origin header: not a browser's page
  const counted = await c.domains.updateOne({ _id: domain._id, 'refusedOrigins.origin': origin }, { $inc: { 'refusedOrigins.$.count': 1 }, $set: { 'refusedOrigins.$.lastAt': now } });
  if (counted.matchedCount > 0) return;
  const entry: RefusedOrigin = { origin, count: 1, firstAt: now, lastAt: now };
  const added = await c.domains.updateOne({ _id: domain._id, 'refusedOrigins.origin': { $ne: origin } }, { $push: { refusedOrigins: { $each: [entry], $slice: -REFUSED_ORIGINS_KEPT } } });
  if (added.modifiedCount > 0) {
    log.warn({ domain: domain.name, origin }, `refused the tracker's requests from ${origin}: it is not an allowed origin of ${domain.name}; add it in the back end (Settings, Install: "Allow this origin") or to allowedOrigins in the fixture`);
  }
}
