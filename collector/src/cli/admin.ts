// `npm run admin -- create-user --account NAME --username EMAIL`: adds a user of the back end to an
// account (or gives an existing one a new password) and prints a one-time password.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { collections } from '../db/collections.ts';
import { connectDatabase } from '../db/connect.ts';
import { saveUser } from '../manage/users.ts';

const USAGE = 'Usage: npm run admin -- create-user --account NAME --username EMAIL';

try {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { account: { type: 'string' }, username: { type: 'string' } } });
  if (positionals[0] !== 'create-user' || !values.account || !values.username) throw new Error(USAGE);
  const config = loadConfig();
  const database = await connectDatabase({ mongodbUri: config.mongodbUri, dataDir: config.dataDir, dbName: config.mongodbDb, cacheSize: config.cacheSize });
  try {
    const password = await saveUser(collections(database.db), values.account, values.username);
    console.log(`User ${values.username.trim().toLowerCase()} of account ${values.account}. One-time password: ${password}`);
  } finally {
    await database.close();
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
