// The `form` push (ours, opt-in by the account's `webhookEvents`): each form submission that is not
// spam, as the data API shows it, with its formId; signed, ordered and retried like the call
// center's pushes, through the outbox. A client that did not ask sees none.
import { formRecord } from '../data/records.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import { OptInPushes } from '../webhooks/opt-in-push.ts';
import type { FormDoc } from './documents.ts';
import type { TeamCollections } from '../team/documents.ts';

export class FormPush {
  private readonly pushes: OptInPushes;

  constructor(c: TeamCollections & WebhookCollections) {
    this.pushes = new OptInPushes(c);
  }

  async stored(form: FormDoc, domain: DomainDoc, now = new Date()): Promise<void> {
    if (form.spam) return;
    const receiver = await this.pushes.receiverOf(domain.accountId, 'form');
    if (!receiver) return;
    const data = { formId: form._id, type: 'form', view: null, cart: null, order: null, form: { formId: form._id, ...formRecord(form, domain) } };
    await this.pushes.send(receiver, `form:${form._id}`, data, now);
  }
}
