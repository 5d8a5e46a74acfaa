// What every sender of mails to a domain's people needs (alert-mailer.ts, summary-sender.ts,
// warning-watch.ts): the database, the outbox the mails go through, each person's choices, the
// unsubscribe links, and the back end's address for the mails' links.
import type { Collections } from '../db/collections.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { AlertChoicesStore } from './choices.ts';
import { UnsubscribeLinks } from './unsubscribe.ts';

export class Mailing {
  readonly choices: AlertChoicesStore;
  readonly links: UnsubscribeLinks;

  constructor(
    readonly c: Collections,
    readonly outbox: Outbox,
    readonly publicUrl: string,
  ) {
    this.choices = new AlertChoicesStore(c);
    this.links = new UnsubscribeLinks(c, publicUrl);
  }
}
