// What every sender of mails to a domain's people needs (alert-mailer.ts, summary-sender.ts,
// warning-watch.ts): the database, the outbox the mails go through, each person's choices, the
// unsubscribe links, the rules' mails, and the back end's address for the mails' links.
import type { CrmCollections } from '../crm/documents.ts';
import type { RateLimitCollections } from '../http/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { AlertChoicesStore } from './choices.ts';
import { UnsubscribeLinks } from './unsubscribe.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { AlertCollections } from './documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { OfflineCollections } from '../offline/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { RuleCollections } from '../rules/documents.ts';
import type { AdsCollections } from '../ads/documents.ts';
import { RuleMails } from './rule-mails.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';

export class Mailing {
  readonly choices: AlertChoicesStore;
  readonly links: UnsubscribeLinks;
  readonly ruleMails: RuleMails;

  constructor(
    readonly c: AlertCollections & TeamCollections & DomainCollections & TrackingCollections & OfflineCollections & TelephonyCollections & DataCollections & ReportCollections & FormCollections & WebhookCollections & RuleCollections & AdsCollections & CrmCollections & RateLimitCollections & TranscriptCollections,
    readonly outbox: Outbox,
    readonly publicUrl: string,
  ) {
    this.choices = new AlertChoicesStore(c);
    this.links = new UnsubscribeLinks(c, publicUrl);
    this.ruleMails = new RuleMails(c);
  }
}
