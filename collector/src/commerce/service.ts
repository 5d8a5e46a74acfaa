// Carts and orders as a shop sends them: stored once per shop id, tied to a visit, a call and an
// agent, counted as a conversion at an order's first move to a sale status. Knows nothing of HTTP.
import { COMMERCE_MESSAGES, totalOf, type CartRequest, type OrderRequest, type ProductInput } from '@ringtrail/shared';
import { isDuplicateKey, upsertById } from '../db/writes.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { CART_OPEN, CART_ORDERED, type CartDoc, type OrderAttribution, type OrderDoc, type CommerceCollections } from './documents.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import { claimRecordId, recordIdOf } from '../db/external-refs.ts';
import type { IdAllocator } from '../db/ids.ts';
import { CommerceFailure } from '../http/commerce-envelope.ts';
import { sourceLabel } from '../tracking/attribution.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { TrafficDays } from '../reports/traffic-days.ts';
import { purchaseEvent } from './analytics.ts';
import type { VisitDoc, TrackingCollections } from '../tracking/documents.ts';
import { touchesOf } from '../tracking/touches.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { IdCollections } from '../db/documents.ts';

/** Where an order's buyer came from: its call's, else its visit's source label and keyword. */
interface Origin {
  source: string | null;
  keyword: string | null;
  call: CallDoc | null;
  visit: VisitDoc | null;
}

/** Told of a cart's or an order's change, for the agents on a call of its visitor (agent/live-push.ts). */
export interface LiveCommerce {
  cartChanged(domain: DomainDoc, cart: CartDoc, now: Date): Promise<void>;
  orderChanged(domain: DomainDoc, order: OrderDoc, now: Date): Promise<void>;
}

export class CommerceService {
  constructor(
    private readonly c: CommerceCollections & TrackingCollections & TelephonyCollections & ReportCollections & IdCollections,
    private readonly ids: IdAllocator,
    private readonly push: LiveCommerce,
    private readonly outbox: Outbox,
    private readonly ga4Endpoint: string,
  ) {}

  async saveCart(domain: DomainDoc, req: CartRequest, products: ProductInput[], now = new Date()): Promise<CartDoc> {
    const visitId = await this.visitOf(domain, req.visit_id);
    const call = req.call_id === undefined ? null : await this.callOf(domain, req.call_id);
    const _id = await claimRecordId(this.c, this.ids, 'cart', `cart:${domain._id}:${req.id}`);
    const existing = await this.c.carts.findOne({ _id });
    const agent = req.agent ?? call?.agent ?? existing?.agent ?? null;
    const callId = call?._id ?? existing?.callId ?? null;
    const fields = {
      domainId: domain._id,
      externalId: req.id,
      currency: req.currency,
      visitId,
      isLoggedIn: req.is_logged_in,
      callId,
      agent,
      products,
      totalCost: totalOf(products),
      status: existing?.status ?? CART_OPEN,
      // What the cart was worth when first tied to an agent or a call: the agent statistics' "before".
      valueBeforeAgent: existing?.valueBeforeAgent ?? (agent || callId !== null ? (existing?.totalCost ?? 0) : null),
      updatedAt: now,
    };
    await upsertById(this.c.carts, _id, fields, { createdAt: now });
    const cart: CartDoc = { _id, ...fields, createdAt: existing?.createdAt ?? now };
    await this.push.cartChanged(domain, cart, now);
    return cart;
  }

  async saveOrder(domain: DomainDoc, variant: OrderDoc['variant'], req: OrderRequest, products: ProductInput[] | null, now = new Date()): Promise<OrderDoc> {
    const visitId = req.visit_id === undefined ? null : await this.visitOf(domain, req.visit_id);
    const statusDef = domain.orderStatuses.find((s) => s.name === req.status);
    if (!statusDef) throw new CommerceFailure(COMMERCE_MESSAGES.unknownStatus);
    let call = req.call_id === undefined ? null : await this.callOf(domain, req.call_id);
    const _id = await claimRecordId(this.c, this.ids, 'order', `order:${domain._id}:${req.id}`);
    const existing = await this.c.orders.findOne({ _id });
    const externalCartId = req.cart_id ?? existing?.externalCartId ?? null;
    const cartId = externalCartId === null ? null : await recordIdOf(this.c, `cart:${domain._id}:${externalCartId}`);
    const callId = call?._id ?? existing?.callId ?? null;
    if (!call && callId !== null) call = await this.c.calls.findOne({ _id: callId });
    const orderVisit = visitId ?? existing?.visitId ?? null;
    const lines = products ?? existing?.products ?? [];
    const origin = await this.sourceOf(call, orderVisit);
    const fields = {
      domainId: domain._id,
      externalId: req.id,
      variant,
      cartId,
      externalCartId,
      visitId: orderVisit,
      callId,
      agent: req.agent ?? existing?.agent ?? call?.agent ?? null,
      currency: req.currency ?? existing?.currency ?? domain.currency,
      status: statusDef.name,
      isSale: statusDef.isSale,
      products: lines,
      totalCost: totalOf(lines),
      source: existing?.source ?? origin.source,
      updatedAt: now,
    };
    // convertedAt and attribution are left out: only convert() sets them (absent reads as null).
    await upsertById(this.c.orders, _id, fields, { createdAt: now });
    if (cartId !== null) await this.c.carts.updateOne({ _id: cartId }, { $set: { status: CART_ORDERED } });
    let order: OrderDoc = { _id, ...fields, createdAt: existing?.createdAt ?? now, convertedAt: existing?.convertedAt ?? null, attribution: existing?.attribution ?? null };
    const becomesSale = statusDef.isSale && !existing?.isSale;
    if (becomesSale && (order.visitId !== null || order.callId !== null)) order = await this.convert(domain, order, origin, now);
    await this.push.orderChanged(domain, order, now);
    return order;
  }

  /** Counts the order's conversion once, crediting its call or visit, and queues the analytics event.
   * The claim carries the event: a process dying between the claim and the enqueue leaves it there,
   * and `requeueLostEvents` queues it at the next start. */
  private async convert(domain: DomainDoc, order: OrderDoc, { source, keyword, call, visit }: Origin, now: Date): Promise<OrderDoc> {
    if (await this.c.conversions.findOne({ _id: order._id })) return order;
    // The visitor's touches: its call's, else found from its visit.
    const touches = call ? { lastTouch: call.lastTouch ?? null, firstTouch: call.firstTouch ?? null, lastNonDirect: call.lastNonDirect ?? null } : visit ? await touchesOf(this.c, visit, now) : { lastTouch: null, firstTouch: null, lastNonDirect: null };
    const attribution: OrderAttribution = { visitId: order.visitId, callId: order.callId, source, keyword, agent: order.agent, ...touches };
    const converted = { ...order, convertedAt: now, attribution };
    const event = purchaseEvent(domain, converted, this.ga4Endpoint, await this.gaOf(order));
    try {
      await this.c.conversions.insertOne({ _id: order._id, domainId: domain._id, at: now, event, queued: event === null });
    } catch (err) {
      if (isDuplicateKey(err)) return order;
      throw err;
    }
    await Promise.all([
      this.c.orders.updateOne({ _id: order._id }, { $set: { convertedAt: now, attribution } }),
      new TrafficDays(this.c).saleRecorded(domain, attribution, order.totalCost, now),
    ]);
    if (event) await this.queueEvent(order._id, event, now);
    return converted;
  }

  /** GA4's ids of the order's visit, or of its call's visit. */
  private async gaOf(order: OrderDoc): Promise<VisitDoc['ga']> {
    const visitId = order.visitId ?? (order.callId !== null ? (await this.c.calls.findOne({ _id: order.callId }, { projection: { visitId: 1 } }))?.visitId : null);
    return visitId ? (await this.c.visits.findOne({ _id: visitId }, { projection: { ga: 1 } }))?.ga : undefined;
  }

  /** Events of conversions claimed over a minute ago and never queued: their process died in between.
   * (One that died after queuing but before marking it is queued again; GA4 drops the repeated
   * transaction_id.) Run at start. */
  async requeueLostEvents(now = new Date()): Promise<number> {
    const lost = await this.c.conversions.find({ queued: false, at: { $lt: new Date(now.getTime() - 60_000) } }).toArray();
    for (const conversion of lost) await this.queueEvent(conversion._id, conversion.event!, now);
    return lost.length;
  }

  private async queueEvent(orderId: number, event: OutboxMessage, now: Date): Promise<void> {
    await this.outbox.enqueue(event, now);
    await this.c.conversions.updateOne({ _id: orderId }, { $set: { queued: true } });
  }

  /** Source and keyword of the call, else of the visit. */
  private async sourceOf(call: CallDoc | null, visitId: number | null): Promise<Origin> {
    if (call) return { source: call.source, keyword: call.keyword, call, visit: null };
    const visit = visitId === null ? null : await this.c.visits.findOne({ _id: visitId });
    return visit ? { source: sourceLabel(visit.attribution), keyword: visit.attribution.keyword, call: null, visit } : { source: null, keyword: null, call: null, visit: null };
  }

  private async visitOf(domain: DomainDoc, raw: string): Promise<number> {
    const id = /^\d{1,15}$/.test(raw) ? Number(raw) : null;
    const visit = id === null ? null : await this.c.visits.findOne({ _id: id });
    if (!visit || visit.domainId !== domain._id) throw new CommerceFailure(COMMERCE_MESSAGES.unknownVisit);
    return id!;
  }

  private async callOf(domain: DomainDoc, callId: number): Promise<CallDoc> {
    const call = await this.c.calls.findOne({ _id: callId });
    if (!call || call.domainId !== domain._id) throw new CommerceFailure('Unknown call_id');
    return call;
  }
}
