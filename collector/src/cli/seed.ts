// `npm run seed -- FILE`: loads a fixture into the database the collector uses (same environment).
import { loadConfig } from '../config.ts';
import { databaseOptions, openDatabase } from '../house/open-database.ts';
import { allCollections } from '../house/all-collections.ts';
import { readFixtureFile } from './fixture-file.ts';
import { seedFixture } from './seed-service.ts';

const file = process.argv[2];
if (!file) {
  console.error('Usage: npm run seed -- FILE.json');
  process.exit(2);
}
try {
  const config = loadConfig();
  const fixture = await readFixtureFile(file);
  const database = await openDatabase({ ...databaseOptions(config), shareRunning: true });
  try {
    const summary = await seedFixture(allCollections(database.db), fixture);
    console.log(`Seeded ${file} into ${database.description}: ${summary.accounts} accounts, ${summary.domains} domains, ${summary.numbers} numbers.`);
  } finally {
    await database.close();
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
