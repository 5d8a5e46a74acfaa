// `npm run send-summaries -- --domain NAME --period week|month`: sends that summary now (the last
// full week, Monday to Sunday, or the last full calendar month, in the domain's time zone) to the
// domain's owners and to everyone who chose it. Runs beside a running collector, on its database:
// the mails go through the shared outbox, and this command delivers them itself too (a delivery
// is claimed, so a mail goes once whoever sends it), waiting until they have left.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { databaseOptions, openDatabase } from '../house/open-database.ts';
import { allCollections } from '../house/all-collections.ts';
import { createLogger } from '../logger.ts';
import { Mailer } from '../mail/mailer.ts';
import { SummarySender } from '../alerts/summary-sender.ts';
import { PERIODS, type Period } from '../alerts/summaries.ts';
import { DEFAULT_DELIVERY, DeliveryWorker } from '../webhooks/delivery-worker.ts';
import { Outbox } from '../webhooks/outbox.ts';
import { Mailing } from '../alerts/mailing.ts';
import { ruleMailAddress } from '../alerts/rule-mails.ts';

const USAGE = `Usage: npm run send-summaries -- --domain NAME --period ${PERIODS.join('|')}`;
/** How long the command waits for its mails to leave before it says they are still queued. */
const WAIT_MS = 60_000;

try {
  const { values } = parseArgs({ options: { domain: { type: 'string' }, period: { type: 'string' } } });
  if (!values.domain || !PERIODS.includes(values.period as Period)) throw new Error(USAGE);
  const config = loadConfig();
  if (!config.mail) throw new Error('Mail is not configured: set SMTP_URL (and MAIL_FROM), as for the collector');
  const database = await openDatabase({ ...databaseOptions(config), shareRunning: true });
  const c = allCollections(database.db);
  const outbox = new Outbox(c);
  const mailer = new Mailer(config.mail);
  const worker = new DeliveryWorker(c, outbox, createLogger('warn'), { ...DEFAULT_DELIVERY, publicOnly: !config.allowPrivateWebhooks }, () => {}, { mailer, ruleAddress: ruleMailAddress(c) });
  try {
    const domain = await c.domains.findOne({ _id: values.domain.toLowerCase() });
    if (!domain) throw new Error(`No domain ${values.domain}`);
    const publicUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
    const sent = await new SummarySender(new Mailing(c, outbox, publicUrl)).send(domain, values.period as Period, 'owners and chosen');
    if (!sent.length) console.log(`${domain._id}: no owner and nobody who chose the ${values.period}ly summary: nothing to send`);
    else {
      worker.start();
      const deadline = Date.now() + WAIT_MS;
      while (Date.now() < deadline && (await c.outbox.countDocuments({ kind: 'mail', label: 'summary', url: { $in: sent.map((to) => `mailto:${to}`) } })) > 0) await new Promise((r) => setTimeout(r, 250));
      const waiting = await c.outbox.countDocuments({ kind: 'mail', label: 'summary', url: { $in: sent.map((to) => `mailto:${to}`) } });
      console.log(`${domain._id}: the ${values.period}ly summary ${waiting ? `queued for ${sent.join(', ')}; ${waiting} still waiting for the mail server (a running collector goes on trying)` : `sent to ${sent.join(', ')}`}`);
    }
  } finally {
    await worker.stop();
    mailer.close();
    await database.close();
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
