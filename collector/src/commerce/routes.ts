// HTTP in for the cart and order services: POST form bodies with the domain's customer key.
// Checks run in the spec's order: key, required fields, products, then the service's own
// (visit, status, call).
import Router from '@koa/router';
import type { Context } from 'koa';
import {
  CART_REQUIRED,
  COMMERCE_MESSAGES,
  ORDER_A_REQUIRED,
  ORDER_B_REQUIRED,
  cartRequest,
  hasRequiredFields,
  orderRequest,
  orderVariantOf,
  parseBracketProducts,
  parseJsonProducts,
  type ProductInput,
} from '@ringtrail/shared';
import type { DomainDoc } from '../domains/documents.ts';
import type { DomainCache } from '../domains/domain-cache.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { CommerceFailure, commerceEnvelope, parseCommerceParams } from '../http/commerce-envelope.ts';
import type { Logger } from '../logger.ts';
import type { CommerceService } from './service.ts';

export function commerceRoutes(domains: DomainCache, service: CommerceService, log: Logger): Router {
  const router = new Router();

  async function domainOf(body: Record<string, unknown>, invalidKey: string): Promise<DomainDoc> {
    const domain = await domains.byKey('customerKeyHash', body.key);
    if (!domain) throw new CommerceFailure(invalidKey);
    return domain;
  }

  function requireFields(body: Record<string, unknown>, names: readonly string[]): void {
    if (!hasRequiredFields(body, names)) throw new CommerceFailure(COMMERCE_MESSAGES.missing);
  }

  /** Bracket products (carts, variant A) or a JSON string (variant B), which may be left out
   * (a status change): null keeps the stored ones. */
  function productsOf(variant: 'A' | 'B', raw: unknown): ProductInput[] | null {
    if (variant === 'B' && (raw === undefined || raw === '')) return null;
    const products = variant === 'A' ? parseBracketProducts(raw) : parseJsonProducts(String(raw));
    if (!products) throw new CommerceFailure(COMMERCE_MESSAGES.products);
    return products;
  }

  router.post('/api/customer-cart', commerceEnvelope(log), parseBody, async (ctx: Context) => {
    const body = bodyOf(ctx.request);
    const domain = await domainOf(body, 'Invalid API key');
    requireFields(body, CART_REQUIRED);
    await service.saveCart(domain, parseCommerceParams(cartRequest, body), productsOf('A', body.products)!);
    ctx.body = { status: 'success' };
  });

  router.post('/api/customer-order', commerceEnvelope(log), parseBody, async (ctx: Context) => {
    const body = bodyOf(ctx.request);
    const variant = orderVariantOf(body);
    // The two variants word the bad key differently (spec document 2, Errors).
    const domain = await domainOf(body, variant === 'A' ? 'Invalid API key' : 'Invalid api key');
    requireFields(body, variant === 'A' ? ORDER_A_REQUIRED : ORDER_B_REQUIRED);
    await service.saveOrder(domain, variant, parseCommerceParams(orderRequest, body), productsOf(variant, body.products));
    ctx.body = { status: 'success' };
  });
  return router;
}
