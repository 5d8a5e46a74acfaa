// Wire formats of the cart and order services (spec document 2): POST /api/customer-cart and
// /api/customer-order. Products come as bracket fields (cart, order variant A) or as a JSON
// string (order variant B); both become the same product lines.
import { z } from 'zod';
import { wireInt, wireText } from './wire.ts';

/** The spec's messages of the cart and order services. */
export const COMMERCE_MESSAGES = {
  missing: 'Missing required parameter',
  products: 'Invalid products format',
  unknownVisit: 'Unknown visit_id',
  unknownStatus: 'Unknown status',
} as const;

export interface CommerceAnswer {
  status: 'success' | 'error';
  message?: string;
}

const money = z.union([z.number().finite(), wireText.regex(/^-?\d+(\.\d+)?$/).transform(Number)], { error: 'must be a number' });
const count = wireInt.refine((n) => n >= 0, 'must be 0 or more');
const productId = z.union([z.number().transform(String), wireText.trim().min(1)]);

/** A product line, however it was sent. */
export interface ProductInput {
  externalId: string;
  name: string;
  quantity: number;
  costPerUnit: number;
  details: unknown;
}

const bracketProduct = z
  .object({ id: productId, name: wireText.min(1), quantity: count, price: money, details: z.unknown().optional() })
  .transform((p): ProductInput => ({ externalId: p.id, name: p.name, quantity: p.quantity, costPerUnit: p.price, details: p.details ?? null }));

const jsonProduct = z
  .object({ id: productId, name: z.string().default(''), quantity: z.number().int().min(0), cost_per_unit: z.number().finite(), details: z.record(z.string(), z.unknown()).optional() })
  .transform((p): ProductInput => ({ externalId: p.id, name: p.name, quantity: p.quantity, costPerUnit: p.cost_per_unit, details: p.details ?? null }));

/** `products[0][id]=...` parses to an array, or to an object keyed by index past qs's array limit. */
function bracketList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) return null;
  const entries = Object.entries(value);
  if (!entries.every(([k]) => /^\d+$/.test(k))) return null;
  return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
}

/** Bracket-indexed products (cart, order variant A); null when they cannot be read. */
export function parseBracketProducts(value: unknown): ProductInput[] | null {
  const list = bracketList(value);
  const parsed = list && z.array(bracketProduct).min(1).safeParse(list);
  return parsed?.success ? parsed.data : null;
}

/** A JSON-encoded array of products (order variant B); null when it is not valid JSON of products. */
export function parseJsonProducts(value: string): ProductInput[] | null {
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    return null;
  }
  const parsed = z.array(jsonProduct).safeParse(list);
  return parsed.success ? parsed.data : null;
}

/** To the cent, without floating-point crumbs like 0.30000000000000004. */
export function toCents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

/** Sum of quantity x unit price, to the cent. */
export function totalOf(products: ProductInput[]): number {
  return toCents(products.reduce((sum, p) => sum + p.quantity * p.costPerUnit, 0));
}

const externalId = wireText.trim().min(1).max(128, 'must be at most 128 characters');
const currency = wireText.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR');
const visitId = wireText.trim();
const agent = wireText.trim().min(1).max(254, 'must be at most 254 characters');

/** Fields after the required ones were found present (see `requiredFields`). */
export const cartRequest = z.object({
  id: externalId,
  currency,
  visit_id: visitId,
  is_logged_in: z.union([z.enum(['0', '1']).transform((v) => v === '1'), z.literal(0).transform(() => false), z.literal(1).transform(() => true), z.boolean()], { error: 'must be 0 or 1' }),
  call_id: wireInt.optional(),
  agent: agent.optional(),
});
export type CartRequest = z.infer<typeof cartRequest>;

export const orderRequest = z.object({
  id: externalId,
  status: wireText.trim().min(1),
  cart_id: externalId.optional(),
  currency: currency.optional(),
  visit_id: visitId.optional(),
  call_id: wireInt.optional(),
  agent: agent.optional(),
});
export type OrderRequest = z.infer<typeof orderRequest>;

export const CART_REQUIRED = ['id', 'currency', 'visit_id', 'products', 'is_logged_in'] as const;
export const ORDER_A_REQUIRED = ['id', 'cart_id', 'currency', 'visit_id', 'products', 'status'] as const;
export const ORDER_B_REQUIRED = ['id', 'status'] as const;

/** Variant A sends its products as bracket fields; anything else (a JSON string, or no products) is variant B. */
export function orderVariantOf(body: Record<string, unknown>): 'A' | 'B' {
  const products = body.products;
  return typeof products === 'object' && products !== null ? 'A' : 'B';
}

/** Whether every named field is present and not empty. */
export function hasRequiredFields(body: Record<string, unknown>, names: readonly string[]): boolean {
  return names.every((name) => {
    const value = body[name];
    return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
  });
}
