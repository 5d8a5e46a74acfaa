// The Conversions screen's reading (ours, issue 56): each platform's connection in a word (connected,
// broken) with how many of the domain's leads are in each state, and the leads' conversions, newest
// first, by platform and state, a page at a time. Counted with the index, at most COUNT_LIMIT each.
import { z } from 'zod';
import { wallClock } from '../agent/shapes.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { ADS_PLATFORMS, CONVERSION_STATES, type AdsCollections, type AdsConversionDoc } from './documents.ts';

export const PAGE_SIZE = 50;
/** Counts stop there: the screen says "10000+". */
export const COUNT_LIMIT = 10_000;

export const conversionsQuery = z.object({
  platform: z.enum(ADS_PLATFORMS, { error: 'must be google, microsoft or meta' }).optional(),
  state: z.enum(CONVERSION_STATES, { error: `must be one of ${CONVERSION_STATES.join(', ')}` }).optional(),
  page: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').max(200, 'must be at most 200').default(1),
});

export async function conversionsList(c: AdsCollections, domain: Pick<DomainDoc, '_id' | 'timeZone'>, query: z.infer<typeof conversionsQuery>) {
  const connections = await c.adsConnections.find({ domainId: domain._id }, { projection: { platform: 1, broken: 1 } }).toArray();
  const platforms = await Promise.all(
    ADS_PLATFORMS.map(async (platform) => {
      const connection = connections.find((doc) => doc.platform === platform);
      const counts = Object.fromEntries(await Promise.all(CONVERSION_STATES.map(async (state) => [state, await c.adsConversions.countDocuments({ domainId: domain._id, platform, state }, { limit: COUNT_LIMIT })] as const)));
      return { platform, connected: Boolean(connection), broken: connection?.broken ? { at: wallClock(connection.broken.at, domain.timeZone), error: connection.broken.error } : null, counts };
    }),
  );
  const filter = { domainId: domain._id, ...(query.platform ? { platform: query.platform } : {}), ...(query.state ? { state: query.state } : {}) };
  const docs = await c.adsConversions.find(filter, { sort: { at: -1, _id: 1 }, skip: (query.page - 1) * PAGE_SIZE, limit: PAGE_SIZE + 1 }).toArray();
  return { platforms, conversions: docs.slice(0, PAGE_SIZE).map((doc) => rowOf(doc, domain.timeZone)), page: query.page, more: docs.length > PAGE_SIZE };
}

const rowOf = (doc: AdsConversionDoc, timeZone: string) => ({ platform: doc.platform, kind: doc.kind, id: doc.itemId, state: doc.state, at: wallClock(doc.at, timeZone), queuedAt: wallClock(doc.queuedAt, timeZone), ...(doc.reason ? { reason: doc.reason } : {}) });
