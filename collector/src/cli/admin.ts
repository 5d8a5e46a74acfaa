// `npm run admin -- create-user --account NAME --username EMAIL`: adds a user of the back end to an
// account, making the account when there is none by that name (the first user of a production
// database), or gives an existing user a new password; prints the password and what to do next.
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.ts';
import { collections } from '../db/collections.ts';
import { connectDatabase, databaseOptions } from '../db/connect.ts';
import { createAccountIfMissing, isEmail, saveUser, usernameKey } from '../manage/users.ts';
import { signUpBody } from '../manage/sign-up.ts';
import { valid } from '../manage/validate.ts';

/** Where the back end is: PUBLIC_URL's, or the address `npm start` listens on. */
function backEndUrl(config: Config): string {
  return `${config.publicUrl ? new URL(config.publicUrl).origin : `http://${config.host}:${config.port}`}/manage/`;
}

const USAGE = 'Usage: npm run admin -- create-user --account NAME --username EMAIL';

try {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { account: { type: 'string' }, username: { type: 'string' } } });
  if (positionals[0] !== 'create-user' || !values.account || !values.username) throw new Error(USAGE);
  const { account } = valid(signUpBody.pick({ account: true }), { account: values.account });
  if (!isEmail(values.username)) throw new Error(`--username: "${values.username}" is not an e-mail address`);
  const config = loadConfig();
  const database = await connectDatabase({ ...databaseOptions(config), shareRunning: true });
  try {
    const c = collections(database.db);
    if (await createAccountIfMissing(c, account)) console.log(`Account ${account} created: there was none by that name.`);
    const password = await saveUser(c, account, values.username);
    console.log(`User ${usernameKey(values.username)} of account ${account}. One-time password: ${password}`);
    console.log(`Next: sign in at ${backEndUrl(config)} with it; the back end then asks for the site's domain first.`);
  } finally {
    await database.close();
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
