// Mails the pending call alerts (call-alerts.ts), form leads' among them. Each round, a person's
// due alerts of one kind and domain become one mail: an immediate one goes at once, then that
// person waits a minute for the next of its kind, so a burst (a hundred missed calls in a minute)
// is one mail a minute, never a hundred; an hourly one waits for the hour. The alerts are marked
// with their mail's id before the mail is queued (the outbox's id), so a process that dies in
// between leaves them to be queued again under the same id, and the person gets it once. A person
// removed from the account, or who no longer sees the domain or wants the alert, gets nothing.
// A rule's mails (alert `rule`, rules/rule-mails.ts) are gathered the same way, per rule, and go
// while the rule still mails their recipient.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';
import { mailMessage } from '../mail/message.ts';
import { maySee } from '../team/roles.ts';
import { callAlertMail, MAIL_KIND_OF } from './call-alert-mail.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { PendingAlertDoc, UnsubscribeTokenDoc } from './documents.ts';
import type { Mailing } from './mailing.ts';
import { Rounds } from '../rounds.ts';
import { VoicemailFacts } from './voicemail-facts.ts';

export interface AlertMailerOptions {
  /** How often due alerts are looked for. */
  everyMs?: number;
  /** An immediate alert's mails to one person, at most one per this long per kind and domain. */
  gatherMs?: number;
  /** Whether this collector transcribes recordings: a voicemail's mail then says its transcript is coming. */
  transcribing?: boolean;
}

/** Alerts read per round. */
const BATCH = 1000;
/** A mail taken this long ago and still not queued: its process died; queued again. */
const STALE_MS = 60_000;

/** What a mail is gathered and throttled by, beside its recipient and domain: the alert, or the rule. */
const kindOf = (alert: PendingAlertDoc) => (alert.alert === 'rule' ? `rule:${alert.ruleId}` : alert.alert);

export class AlertMailer {
  private readonly rounds: Rounds;

  private readonly voicemails: VoicemailFacts;

  constructor(
    private readonly m: Mailing,
    log: Logger,
    private readonly o: AlertMailerOptions = {},
  ) {
    this.rounds = new Rounds(() => this.tick(), 'mailing alerts', log);
    this.voicemails = new VoicemailFacts(m.c, m.publicUrl, o.transcribing ?? false);
  }

  start(): void {
    this.rounds.start(this.o.everyMs ?? 1000);
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** One round: the due alerts' mails, and those a dead process left taken but not queued. */
  async tick(now = new Date()): Promise<void> {
    const due = await this.m.c.pendingAlerts.find({ dueAt: { $lte: now }, batch: null }).sort({ dueAt: 1 }).limit(BATCH).toArray();
    const groups = new Map<string, PendingAlertDoc[]>();
    for (const alert of due) {
      const key = `${alert.username}|${alert.domainId}|${kindOf(alert)}|${alert.delivery}`;
      (groups.get(key) ?? groups.set(key, []).get(key)!).push(alert);
    }
    for (const alerts of groups.values()) await this.take(alerts, now);
    const stale = await this.m.c.pendingAlerts.find({ batch: { $ne: null }, batchedAt: { $lt: new Date(now.getTime() - STALE_MS) } }, { projection: { batch: 1 } }).limit(BATCH).toArray();
    for (const batch of new Set(stale.map((alert) => alert.batch!))) await this.send(batch, now);
  }

  private async take(alerts: PendingAlertDoc[], now: Date): Promise<void> {
    const { username, domainId, delivery } = alerts[0]!;
    const ids = alerts.map((a) => a._id);
    if (delivery === 'immediate') {
      const last = await this.m.c.alertThrottle.findOne({ _id: `${username}|${domainId}|${kindOf(alerts[0]!)}` });
      const next = last ? last.lastSentAt.getTime() + (this.o.gatherMs ?? 60_000) : 0;
      if (next > now.getTime()) {
        await this.m.c.pendingAlerts.updateMany({ _id: { $in: ids }, batch: null }, { $set: { dueAt: new Date(next) } });
        return;
      }
    }
    const batch = `mail_${randomUUID()}`;
    await this.m.c.pendingAlerts.updateMany({ _id: { $in: ids }, batch: null }, { $set: { batch, batchedAt: now } });
    await this.send(batch, now);
  }

  /** Queues the mail of the alerts taken under `batch` (its outbox id), then lets them go. */
  private async send(batch: string, now: Date): Promise<void> {
    const alerts = await this.m.c.pendingAlerts.find({ batch }).toArray();
    if (!alerts.length) return;
    const { username, domainId, alert, delivery } = alerts[0]!;
    const domain = await this.m.c.domains.findOne({ _id: domainId });
    const wanted = domain && (await this.wanted(alerts[0]!, domain));
    if (domain && wanted) {
      const callIds = alerts.flatMap((a) => (a.callId === undefined ? [] : [a.callId]));
      const formIds = alerts.flatMap((a) => (a.formId === undefined ? [] : [a.formId]));
      const [calls, forms] = await Promise.all([callIds.length ? this.m.c.calls.find({ _id: { $in: callIds } }).toArray() : [], formIds.length ? this.m.c.forms.find({ _id: { $in: formIds } }).toArray() : []]);
      const unsubscribeUrl = await this.m.links.issue(username, domain._id, wanted.choice, now, wanted.label);
      const texts = alerts.flatMap((a) => (a.text ? [a.text] : []));
      const voicemails = await this.voicemails.of(domain, calls, now);
      const body = callAlertMail({ alert, ruleName: wanted.ruleName, to: username, domain, calls, forms, texts, publicUrl: this.m.publicUrl, unsubscribeUrl, voicemails });
      const personIds = [...new Set([...calls, ...forms, ...texts].flatMap((x) => (typeof x.personId === 'number' ? [x.personId] : [])))];
      await this.m.outbox.enqueue(mailMessage(domain.accountId, MAIL_KIND_OF[alert], body, batch, personIds, { ...(callIds.length ? { callIds } : {}), ...(formIds.length ? { formIds } : {}) }));
      if (delivery === 'immediate') await this.m.c.alertThrottle.updateOne({ _id: `${username}|${domainId}|${kindOf(alerts[0]!)}` }, { $max: { lastSentAt: now } }, { upsert: true });
    }
    await this.m.c.pendingAlerts.deleteMany({ batch });
  }

  /** Whether the recipient is still to get this mail, and what its unsubscribe link turns off: a
   * member who still sees the domain and wants the alert, or a recipient the rule still mails. */
  private async wanted(alert: PendingAlertDoc, domain: DomainDoc): Promise<{ choice: UnsubscribeTokenDoc['choice']; label?: string; ruleName?: string } | null> {
    if (alert.alert === 'rule') {
      const rule = await this.m.ruleMails.mailing(alert.ruleId!, domain, alert.username);
      return rule && { choice: `rule:${rule._id}`, label: `the mails of the rule ${rule.name}`, ruleName: rule.name };
    }
    const user = await this.m.c.users.findOne({ _id: alert.username });
    // A voicemail's transcript follows the missed call it belongs to, and its choice.
    const choice = alert.alert === 'voicemailTranscript' ? 'missedCall' : alert.alert;
    const wants = user && user.accountId === domain.accountId && maySee(user, domain._id) && (await this.m.choices.of(user, domain._id))[choice] !== 'off';
    return wants ? { choice } : null;
  }
}
