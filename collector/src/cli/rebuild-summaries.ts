// `npm run rebuild-summaries -- [DOMAIN]`: recomputes the data API's daily rollups and page buckets
// from the calls, for one domain or every domain (after a crash between a call write and its
// summaries). Run it while the domain's calls are not being reported.
import { loadConfig } from '../config.ts';
import { collections } from '../db/collections.ts';
import { connectDatabase } from '../db/connect.ts';
import { CallSummaries } from '../data/call-summaries.ts';

try {
  const config = loadConfig();
  const database = await connectDatabase({ mongodbUri: config.mongodbUri, dataDir: config.dataDir, dbName: config.mongodbDb, cacheSize: config.cacheSize });
  try {
    const c = collections(database.db);
    const only = process.argv[2];
    const domains = await c.domains.find(only ? { _id: only } : {}, { projection: { timeZone: 1 } }).toArray();
    if (only && domains.length === 0) throw new Error(`No domain ${only}`);
    for (const domain of domains) {
      const { days, hours } = await new CallSummaries(c).rebuild(domain._id, domain.timeZone);
      console.log(`${domain._id}: ${days} days, ${hours} hours of calls`);
    }
  } finally {
    await database.close();
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
