// Pushes a caller's new page views, cart changes and order changes to the account's webhook while
// an agent is on the call, as the form field `realtimeData` (spec document 3), through the outbox.
import type { RealtimeData } from '@ringtrail/shared';
import type { CartDoc, OrderDoc } from '../commerce/documents.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { ViewDoc } from '../tracking/documents.ts';
import type { LiveCalls } from './live-calls.ts';
import type { LiveCallDoc } from './documents.ts';
import { cartShape, orderShape, viewShape } from './shapes.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { WEBHOOK_CONTENT_TYPE } from '../webhooks/documents.ts';
import type { TeamCollections } from '../team/documents.ts';

export class LivePush {
  constructor(
    private readonly c: TeamCollections,
    private readonly outbox: Outbox,
    private readonly liveCalls: LiveCalls,
  ) {}

  async viewAdded(domain: DomainDoc, view: ViewDoc, now = new Date()): Promise<void> {
    const shaped = viewShape(view, domain.timeZone);
    const live = await this.liveCalls.ofVisit(domain.accountId, view.visitId);
    await this.pushTo(live, domain, now, (callId) => ({ callId, type: 'view', view: shaped, cart: null, order: null }));
  }

  async cartChanged(domain: DomainDoc, cart: CartDoc, now = new Date()): Promise<void> {
    const shaped = cartShape(cart, domain.timeZone, 'webhook');
    await this.push(domain, cart.visitId, cart.callId, now, (callId) => ({ callId, type: 'cart', view: null, cart: shaped, order: null }));
  }

  async orderChanged(domain: DomainDoc, order: OrderDoc, now = new Date()): Promise<void> {
    const shaped = orderShape(order, domain.timeZone, 'webhook');
    await this.push(domain, order.visitId, order.callId, now, (callId) => ({ callId, type: 'order', view: null, cart: null, order: shaped }));
  }

  private async push(domain: DomainDoc, visitId: number | null, callId: number | null, now: Date, payload: (callId: number) => RealtimeData): Promise<void> {
    await this.pushTo(await this.liveCalls.of(domain.accountId, visitId, callId, now), domain, now, payload);
  }

  private async pushTo(live: LiveCallDoc[], domain: DomainDoc, now: Date, payload: (callId: number) => RealtimeData): Promise<void> {
    if (live.length === 0) return;
    const account = await this.c.accounts.findOne({ _id: domain.accountId });
    if (!account?.webhookUrl) return;
    for (const call of live) {
      const data = payload(call._id);
      await this.outbox.enqueue(
        {
          accountId: account._id,
          stream: `call:${call._id}`,
          kind: 'webhook',
          label: data.type,
          url: account.webhookUrl,
          contentType: WEBHOOK_CONTENT_TYPE,
          body: new URLSearchParams({ realtimeData: JSON.stringify(data) }).toString(),
          signed: true,
        },
        now,
      );
    }
  }
}
