// `npm run rebuild-summaries -- [DOMAIN]`: recomputes the data API's daily rollups and page buckets
// from the calls, and the back end's traffic counters from the visits and views (first making again
// the visits a crash lost beside their first views, tracking/lost-visits.ts), for one domain or
// every domain (after a crash between a call write and its summaries, or with a second of summed
// traffic counters not yet written). Run it while the domain takes no calls and no views.
import { loadConfig } from '../config.ts';
import { databaseOptions, openDatabase } from '../house/open-database.ts';
import { allCollections } from '../house/all-collections.ts';
import { CallSummaries } from '../house/call-summaries.ts';
import { recountTraffic } from '../reports/traffic-recount.ts';
import { restoreLostVisits } from '../tracking/lost-visits.ts';

try {
  const config = loadConfig();
  const database = await openDatabase({ ...databaseOptions(config), shareRunning: true });
  try {
    const c = allCollections(database.db);
    const only = process.argv[2];
    const domains = await c.domains.find(only ? { _id: only } : {}, { projection: { timeZone: 1 } }).toArray();
    if (only && domains.length === 0) throw new Error(`No domain ${only}`);
    for (const domain of domains) {
      const { days, hours } = await new CallSummaries(c).rebuild(domain._id, domain.timeZone);
      const restored = await restoreLostVisits(c, domain._id);
      const trafficDays = await recountTraffic(c, domain._id, domain.timeZone);
      const lost = restored > 0 ? ` (${restored} visits lost to a crash made again from their first views)` : '';
      console.log(`${domain._id}: ${days} days, ${hours} hours of calls; ${trafficDays} days of views${lost}`);
    }
  } finally {
    await database.close();
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
