// The operator's commands on the back end's members, run beside the collector on its database:
//   npm run admin -- create-user --account NAME --username EMAIL [--role ROLE]
//     an invitation to the account (made when there is none by that name: the first owner of a
//     production database); prints its link, with which the person chooses their password.
//   npm run admin -- reset-password --username EMAIL
//     a link with which a member chooses a new password.
//   npm run admin -- check-warnings
//     the warning checks of every domain and account now (the collector runs them every minute):
//     a warning that starts or ends is mailed as then; prints those that hold.
//   npm run admin -- run-retention
//     the recordings' retention now (the collector runs it every hour): prints how many went.
// Links are valid 7 days and used once.
import { utcMinute } from '../domains/dates.ts';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.ts';
import { databaseOptions, openDatabase } from '../house/open-database.ts';
import { allCollections } from '../house/all-collections.ts';
import { AuditLog } from '../team/audit.ts';
import { linkUrl } from '../team/invitations.ts';
import { Members } from '../team/members.ts';
import { ROLES, type Role } from '../team/roles.ts';
import { createAccountIfMissing, isEmail, usernameKey } from '../team/users.ts';
import { signUpBody } from '../team/sign-up.ts';
import { valid } from '../http/manage-validate.ts';
import { Mailing } from '../alerts/mailing.ts';
import { WarningWatch } from '../alerts/warning-watch.ts';
import { RecordingRetention } from '../recordings/retention.ts';
import { RecordingStates } from '../recordings/states.ts';
import { RecordingStore } from '../recordings/store.ts';
import { wireCallWrites } from '../house/writes.ts';
import { Outbox } from '../webhooks/outbox.ts';

/** Where the back end is: PUBLIC_URL's, or the address `npm start` listens on. */
function backEndUrl(config: Config): string {
  return `${config.publicUrl ? new URL(config.publicUrl).origin : `http://${config.host}:${config.port}`}/manage/`;
}

const USAGE = `Usage: npm run admin -- create-user --account NAME --username EMAIL [--role ${ROLES.join('|')}]
       npm run admin -- reset-password --username EMAIL
       npm run admin -- check-warnings
       npm run admin -- run-retention`;
/** The commands that run one of the collector's rounds now, and need no member. */
const ROUNDS = ['check-warnings', 'run-retention'];
/** Who made a link, as the audit trail and the Members screen say. */
const OPERATOR = 'operator (npm run admin)';

try {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { account: { type: 'string' }, username: { type: 'string' }, role: { type: 'string' } } });
  const command = positionals[0];
  if (ROUNDS.includes(command ?? '')) await runRound(command!);
  else await memberCommand(command, values);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}

/** create-user and reset-password. */
async function memberCommand(command: string | undefined, values: { account?: string; username?: string; role?: string }): Promise<void> {
  if (!(command === 'create-user' && values.account) && command !== 'reset-password') throw new Error(USAGE);
  if (!values.username) throw new Error(USAGE);
  if (!isEmail(values.username)) throw new Error(`--username: "${values.username}" is not an e-mail address`);
  const role = (values.role ?? 'owner') as Role;
  if (!ROLES.includes(role)) throw new Error(`--role: must be one of ${ROLES.join(', ')}`);
  const username = usernameKey(values.username);
  const config = loadConfig();
  const database = await openDatabase({ ...databaseOptions(config), shareRunning: true });
  try {
    const c = allCollections(database.db);
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
}

/** One round of the warning checks or of the retention, now, on the collector's database. */
async function runRound(command: string): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ ...databaseOptions(config), shareRunning: true });
  try {
    const c = allCollections(database.db);
    if (command === 'run-retention') {
      const deleted = await new RecordingRetention(c, new RecordingStore(database.db), new RecordingStates(wireCallWrites(c))).tick();
      console.log(`Retention: ${deleted} recording(s) past their domain's days deleted.`);
      return;
    }
    // Mails of warnings that start or end go through the shared outbox: a running collector sends them.
    await new WarningWatch(new Mailing(c, new Outbox(c), config.publicUrl ?? `http://${config.host}:${config.port}`)).tick();
    const holding = await c.warningStates.find({ endedAt: null }).sort({ _id: 1 }).toArray();
    if (!holding.length) console.log('Warnings: none holds now.');
    for (const w of holding) console.log(`${w.domainId ?? `account ${w.accountId}`}: ${w.warning} since ${utcMinute(w.since)} (${w.facts.map(([k, v]) => `${k}: ${v}`).join('; ')})`);
  } finally {
    await database.close();
  }
}
