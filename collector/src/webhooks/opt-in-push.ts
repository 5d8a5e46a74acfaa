// The pushes an account asks for by its `webhookEvents` (ours: `call`, `form`, `transcript`): to its
// webhook URL, as the spec's form field `realtimeData`, signed, ordered by stream and retried like
// the call center's pushes, through the outbox. An account that did not ask gets none.
import type { TeamCollections } from '../team/documents.ts';
import { WEBHOOK_CONTENT_TYPE, type WebhookCollections } from './documents.ts';
import type { WebhookEvent } from './events.ts';
import { Outbox } from './outbox.ts';

/** Where an account's pushes of an event go. */
export interface PushReceiver {
  accountId: string;
  url: string;
  event: WebhookEvent;
}

export class OptInPushes {
  private readonly outbox: Outbox;

  constructor(private readonly c: TeamCollections & WebhookCollections) {
    this.outbox = new Outbox(c);
  }

  /** Where the account's pushes of `event` go, or null when it has no webhook or did not ask for them. */
  async receiverOf(accountId: string, event: WebhookEvent): Promise<PushReceiver | null> {
    return (await this.receiversOf(accountId, [event]))[event] ?? null;
  }

  /** Where the account's pushes of each of `events` go, read once; those it did not ask for are absent. */
  async receiversOf(accountId: string, events: WebhookEvent[]): Promise<Partial<Record<WebhookEvent, PushReceiver>>> {
    const account = await this.c.accounts.findOne({ _id: accountId }, { projection: { webhookUrl: 1, webhookEvents: 1 } });
    if (!account?.webhookUrl) return {};
    return Object.fromEntries(events.filter((event) => account.webhookEvents?.includes(event)).map((event) => [event, { accountId: account._id, url: account.webhookUrl!, event }]));
  }

  /** Queues `data` to the receiver in `stream` (`call:<id>`, `form:<id>`). */
  async send(to: PushReceiver, stream: string, data: unknown, now = new Date()): Promise<void> {
    await this.outbox.enqueue({ accountId: to.accountId, stream, kind: 'webhook', label: to.event, url: to.url, contentType: WEBHOOK_CONTENT_TYPE, body: new URLSearchParams({ realtimeData: JSON.stringify(data) }).toString(), signed: true }, now);
  }
}
