// HTTP in for the account's mail: whether mail is configured (SMTP_URL) and the mails that could
// not be sent, and a test e-mail a member sends themselves.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { ManageFailure } from '../http/manage-envelope.ts';
import { html as mailHtml, mailPage } from '../mail/layout.ts';
import { mailMessage } from '../mail/message.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { Can, SignedIn } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import { tooMany } from '../team/sign-in-limit.ts';
import { WindowLimiter } from '../http/rate-limits.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { RateLimitCollections } from '../http/documents.ts';

/** Failed mails listed at most. */
const FAILURES = 20;
/** Test e-mails one member may ask for per quarter of an hour: a session is no way to fill a mailbox
 * (or the mail server's sending quota). */
export const TEST_MAILS_PER_MEMBER = 5;

export interface MailOptions {
  /** The sender when mail is configured; absent: it is not. */
  from?: string;
}

export function mailRoutes(router: Router, c: WebhookCollections & RateLimitCollections, outbox: Outbox, can: Can, options: MailOptions, publicUrl: string): void {
  const signedIn = (ctx: Context) => ctx.state as SignedIn;
  const testMails = new WindowLimiter(c.rateLimits, 'test-mail-user', TEST_MAILS_PER_MEMBER, 900);

  router.get('/mail', can(RULES.member), async (ctx) => {
    const { member } = signedIn(ctx);
    // An owner or admin sees every failed mail of the account; a member their own.
    const everyone = member.role === 'owner' || member.role === 'admin';
    const failed = await c.deliveryLog
      .find({ accountId: member.accountId, kind: 'mail', outcome: 'abandoned' }, { sort: { at: -1 }, limit: 200, projection: { at: 1, label: 1, body: 1, error: 1 } })
      .toArray();
    const failures = failed
      .map((entry) => ({ at: entry.at.toISOString(), kind: entry.label, ...(JSON.parse(entry.body) as { to: string; subject: string }), error: entry.error }))
      .filter((entry) => everyone || entry.to === member._id)
      .slice(0, FAILURES)
      .map(({ at, kind, to, subject, error }) => ({ at, kind, to, subject, error }));
    // `retrying` only while mails wait on a server that does not take them.
    const stalled = await retrying(c, member.accountId);
    ctx.body = { configured: Boolean(options.from), from: options.from ?? null, ...(stalled ? { retrying: stalled } : {}), failures };
  });

  router.post('/mail/test', can(RULES.member), async (ctx) => {
    if (!options.from) throw new ManageFailure(409, 'Mail is not configured: set SMTP_URL (and MAIL_FROM) and restart the collector');
    const { member } = signedIn(ctx);
    const wait = await testMails.secondsOver(member._id);
    if (wait !== null) throw tooMany(wait, 'test e-mails');
    const backEnd = `${publicUrl}/manage/`;
    const text = `This is the test e-mail you asked for from RingTrail's back end (${backEnd}).\n\nMail works: alerts and summaries will arrive like this one.\n`;
    const body = { to: member._id, subject: 'RingTrail test e-mail', text, html: testHtml(backEnd), headers: {} };
    await outbox.enqueue(mailMessage(member.accountId, 'test', body));
    ctx.status = 202;
    ctx.body = { to: member._id };
  });
}

/** A mail server that stops answering (or answers "try later") refuses nothing for good: the
 * account's mails wait in the outbox, retried. Since when, how many, and the last error. */
async function retrying(c: WebhookCollections, accountId: string): Promise<{ since: string; waiting: number; lastError: string | null } | null> {
  const oldest = await c.outbox.findOne({ accountId, kind: 'mail', attempts: { $gt: 0 } }, { sort: { firstAttemptAt: 1 }, projection: { firstAttemptAt: 1 } });
  if (!oldest?.firstAttemptAt) return null;
  const [waiting, last] = await Promise.all([
    c.outbox.countDocuments({ accountId, kind: 'mail' }),
    c.deliveryLog.findOne({ accountId, kind: 'mail', outcome: 'retrying' }, { sort: { at: -1 }, projection: { error: 1 } }),
  ]);
  return { since: oldest.firstAttemptAt.toISOString(), waiting, lastError: last?.error ?? null };
}

function testHtml(backEnd: string): string {
  return mailPage({
    heading: 'Mail works',
    body: mailHtml`This is the test e-mail you asked for from RingTrail's back end. Alerts and summaries will arrive like this one.`,
    link: { url: backEnd, label: 'Open RingTrail' },
    footer: 'You receive this e-mail because you asked for it in RingTrail’s settings.',
  });
}
