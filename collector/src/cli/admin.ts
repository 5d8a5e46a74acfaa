// The operator's commands on the back end's members, run beside the collector on its database:
//   npm run admin -- create-user --account NAME --username EMAIL [--role ROLE]
//     an invitation to the account (made when there is none by that name: the first owner of a
//     production database); prints its link, with which the person chooses their password.
//   npm run admin -- reset-password --username EMAIL
//     a link with which a member chooses a new password.
// Links are valid 7 days and used once.
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.ts';
import { collections } from '../db/collections.ts';
import { connectDatabase, databaseOptions } from '../db/connect.ts';
import { AuditLog } from '../manage/audit.ts';
import { linkUrl } from '../manage/invitations.ts';
import { Members } from '../manage/members.ts';
import { ROLES, type Role } from '../manage/roles.ts';
import { createAccountIfMissing, isEmail, usernameKey } from '../manage/users.ts';
import { signUpBody } from '../manage/sign-up.ts';
import { valid } from '../manage/validate.ts';

/** Where the back end is: PUBLIC_URL's, or the address `npm start` listens on. */
function backEndUrl(config: Config): string {
  return `${config.publicUrl ? new URL(config.publicUrl).origin : `http://${config.host}:${config.port}`}/manage/`;
}

const USAGE = `Usage: npm run admin -- create-user --account NAME --username EMAIL [--role ${ROLES.join('|')}]
       npm run admin -- reset-password --username EMAIL`;
/** Who made a link, as the audit trail and the Members screen say. */
const OPERATOR = 'operator (npm run admin)';

try {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { account: { type: 'string' }, username: { type: 'string' }, role: { type: 'string' } } });
  const command = positionals[0];
  if (!(command === 'create-user' && values.account) && command !== 'reset-password') throw new Error(USAGE);
  if (!values.username) throw new Error(USAGE);
  if (!isEmail(values.username)) throw new Error(`--username: "${values.username}" is not an e-mail address`);
  const role = (values.role ?? 'owner') as Role;
  if (!ROLES.includes(role)) throw new Error(`--role: must be one of ${ROLES.join(', ')}`);
  const username = usernameKey(values.username);
  const config = loadConfig();
  const database = await connectDatabase({ ...databaseOptions(config), shareRunning: true });
  try {
    const c = collections(database.db);
    const members = new Members(c);
    const audit = new AuditLog(c);
    if (command === 'create-user') {
      const { account } = valid(signUpBody.pick({ account: true }), { account: values.account });
      if (await createAccountIfMissing(c, account)) console.log(`Account ${account} created: there was none by that name.`);
      const existing = await c.users.findOne({ _id: username });
      if (existing) throw new Error(existing.accountId === account ? `${username} is already a member of ${account}: npm run admin -- reset-password --username ${username} gives them a new password` : `${username} is a user of another account`);
      const link = await members.invite(account, OPERATOR, { username, role });
      await audit.write({ accountId: account, username: OPERATOR, ip: 'local', action: 'member.invite', details: { member: username, role } });
      console.log(`Invitation of ${username} to account ${account} as ${role}, valid until ${link.expiresAt.toISOString()}:`);
      console.log(linkUrl(backEndUrl(config), link.token));
      console.log('Next: open it, choose a password; the back end then asks for the site\'s domain first.');
    } else {
      const member = await c.users.findOne({ _id: username });
      if (!member) throw new Error(`${username} is not a member of any account`);
      const link = await members.resetLink(member.accountId, username, OPERATOR);
      await audit.write({ accountId: member.accountId, username: OPERATOR, ip: 'local', action: 'member.reset', details: { member: username } });
      console.log(`Password reset of ${username} (account ${member.accountId}), valid until ${link.expiresAt.toISOString()}:`);
      console.log(linkUrl(backEndUrl(config), link.token));
    }
  } finally {
    await database.close();
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
