// The `form` push (ours, opt-in by the account's `webhookEvents`): each form submission that is not
// spam, as the data API shows it, with its formId; signed, ordered and retried like the call
// center's pushes, through the outbox. A client that did not ask sees none.
import { formRecord } from '../data/records.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { WEBHOOK_CONTENT_TYPE, type WebhookCollections } from '../webhooks/documents.ts';
import { Outbox } from '../webhooks/outbox.ts';
import type { FormDoc } from './documents.ts';
import type { TeamCollections } from '../team/documents.ts';

export class FormPush {
  private readonly outbox: Outbox;

  constructor(private readonly c: TeamCollections & WebhookCollections) {
    this.outbox = new Outbox(c);
  }

  async stored(form: FormDoc, domain: DomainDoc, now = new Date()): Promise<void> {
    if (form.spam) return;
    const account = await this.c.accounts.findOne({ _id: domain.accountId }, { projection: { webhookUrl: 1, webhookEvents: 1 } });
    if (!account?.webhookUrl || !account.webhookEvents?.includes('form')) return;
    const data = { formId: form._id, type: 'form', view: null, cart: null, order: null, form: { formId: form._id, ...formRecord(form, domain) } };
    await this.outbox.enqueue(
      { accountId: account._id, stream: `form:${form._id}`, kind: 'webhook', label: 'form', url: account.webhookUrl, contentType: WEBHOOK_CONTENT_TYPE, body: new URLSearchParams({ realtimeData: JSON.stringify(data) }).toString(), signed: true },
      now,
    );
  }
}
