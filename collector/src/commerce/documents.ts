// Carts, orders and their conversions: the shapes and indexes of their documents (house/all-collections.ts gathers every family's).
import type { Collection, Db } from 'mongodb';
import { collectionsNamed } from '../db/collections.ts';
import type { Touch } from '../tracking/touches.ts';
import type { OutboxMessage } from '../webhooks/documents.ts';
import type { IndexPlan } from '../db/index-plan.ts';

/** Cart status codes, as the agent service shows them (the spec shows the field, not its values). */
export const CART_OPEN = 1;
export const CART_ORDERED = 2;

/** A product line as stored, whichever way it was sent. */
export interface ProductLine {
  externalId: string;
  name: string;
  quantity: number;
  costPerUnit: number;
  /** Kept as sent: a string, an array or an object. */
  details: unknown;
}

export interface CartDoc {
  _id: number;
  domainId: string;
  externalId: string;
  currency: string;
  visitId: number;
  isLoggedIn: boolean;
  callId: number | null;
  agent: string | null;
  products: ProductLine[];
  totalCost: number;
  /** CART_OPEN, or CART_ORDERED once an order names it. */
  status: number;
  /** The cart's value when an agent first touched it (0 for a cart an agent created): agent statistics. */
  valueBeforeAgent: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Who an order's revenue is credited to, fixed at its first move to a sale status. */
export interface OrderAttribution {
  visitId: number | null;
  callId: number | null;
  source: string | null;
  keyword: string | null;
  agent: string | null;
  /** Ours (tracking/touches.ts): the visit of the sale (or of its call), the buyer's first touch and
   * last non-direct one, as of the sale; null when not known, absent on sales converted before they were kept. */
  lastTouch?: Touch | null;
  firstTouch?: Touch | null;
  lastNonDirect?: Touch | null;
}

export interface OrderDoc {
  _id: number;
  domainId: string;
  externalId: string;
  variant: 'A' | 'B';
  cartId: number | null;
  externalCartId: string | null;
  visitId: number | null;
  callId: number | null;
  agent: string | null;
  currency: string;
  status: string;
  isSale: boolean;
  products: ProductLine[];
  totalCost: number;
  /** The source label of the order's call or visit, known when it was first stored. */
  source: string | null;
  /** Set at the first move to a sale status, when the order is tied to a visit or a call. */
  convertedAt: Date | null;
  attribution: OrderAttribution | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Claims an order's one conversion: `_id` = the order id, so two racing sale moves count once.
 * Carries the analytics event until it is in the outbox (`queued`), so a crash in between loses nothing. */
export interface ConversionDoc {
  _id: number;
  domainId: string;
  at: Date;
  event: OutboxMessage | null;
  queued: boolean;
}

/** The indexes of these collections: every query of a request's path goes through one. */
export const commerceIndexes: IndexPlan = {
  carts: [[{ visitId: 1, updatedAt: -1 }]],
  orders: [[{ visitId: 1 }], [{ callId: 1 }]],
};

/** The commerce family's collections, as its services receive them. */
export interface CommerceCollections {
  carts: Collection<CartDoc>;
  orders: Collection<OrderDoc>;
  conversions: Collection<ConversionDoc>;
}

export function commerceCollections(db: Db): CommerceCollections {
  return collectionsNamed<CommerceCollections>(db, { carts: 'carts', orders: 'orders', conversions: 'conversions' });
}
