// The account's carrier (issue 42): connect a Twilio account (checked at once, the secret sealed),
// see it, remove it, and list its numbers with where they point now. Owners only, as the account's
// webhook and keys are. The carrier's refusals answer in words with its own code, never a 500.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { normalizePhone } from '@ringtrail/shared';
import { CarrierError, type CarrierErrorKind } from '../carriers/carrier.ts';
import { carrierConnectBody, SecretsKeyMissing, SecretUnreadable, type CarrierConnections } from '../carriers/connections.ts';
import { twilioWiring } from '../carriers/wiring.ts';
import { CarrierNumbers, NoCarrier, PriceChanged } from '../carriers/carrier-numbers.ts';
import { displayInItsCountry, displayOf } from '../domains/phone-display.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import { money, poolWords } from './words.ts';
import type { NumberAtCarrier } from '../carriers/documents.ts';
import type { DomainDoc, PoolConfig, DomainCollections } from '../domains/documents.ts';
import { domainOf, numberParam } from './settings-routes.ts';
import { poolOf, poolOrMade, removeNumber } from './numbers.ts';
import { NumberCheck } from '../carriers/number-check.ts';
import { e164Of } from '../domains/phone-numbers.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import { valid } from '../http/manage-validate.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { OfflineCollections } from '../offline/documents.ts';

const STATUS: Record<CarrierErrorKind, number> = { credentials: 400, unavailable: 400, suspended: 400, refused: 400, 'rate-limited': 429, timeout: 504, unreachable: 502, 'not-textable': 400 };

/** Runs a call to the carrier; its refusal as the management API's answer, with the carrier's code. */
export async function carrierCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof CarrierError) throw new ManageFailure(STATUS[err.kind], err.message, undefined, { code: err.code, carrierError: err.kind });
    if (err instanceof SecretsKeyMissing || err instanceof NoCarrier || err instanceof SecretUnreadable) throw new ManageFailure(409, err.message);
    if (err instanceof PriceChanged) throw new ManageFailure(409, err.message, undefined, { price: err.price });
    throw err;
  }
}

const accountIdOf = (ctx: Context) => memberOf(ctx).accountId;
const releasedWord = (at: NumberAtCarrier) => (at.origin === 'bought' ? 'released at the carrier' : 'restored as it was');

export const importBody = z.object({ numbers: z.array(z.string().min(1).max(40)).min(1, 'name at least one number').max(100, 'at most 100 numbers at once') }).strict();
/** Narrowing a search of the numbers on sale. */
export const searchQuery = z
  .object({
    areaCode: z.string().regex(/^\d{1,6}$/, 'must be the digits of an area code').optional(),
    locality: z.string().trim().min(1).max(64).regex(/^[\p{L}\p{M} .'-]+$/u, 'must be the name of a town or city').optional(),
    contains: z.string().regex(/^[0-9*]{1,16}$/, 'must be digits (and * for any digit)').optional(),
  })
  .strict();
export const buyBody = searchQuery
  .extend({
    count: z.number().int().min(1, 'must be 1 to 50').max(50, 'must be 1 to 50'),
    monthlyPrice: z.number().min(0, 'must be 0 or more').max(10_000).optional().describe("Ours (issue 81): the monthly price a number that the person confirmed, in the carrier's currency: nothing is bought when the carrier lists more now (409)"),
  })
  .strict();

export const priceQuery = z.object({ count: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 to 50').max(50, 'must be 1 to 50').default(1) }).strict();

/** The domain's number named in the path, and where it is at the carrier; 404 when it has no carrier record. */
async function numberAtCarrier(c: DomainCollections, ctx: Context, domain: DomainDoc): Promise<{ number: string; at: NumberAtCarrier; pool: PoolConfig }> {
  const number = await numberParam(c, ctx, domain);
  const stored = await c.trackingNumbers.findOne({ _id: number, domainId: domain._id });
  if (!stored?.carrier) throw new ManageFailure(404, `${ctx.params.number} was not imported or bought through the carrier`);
  return { number, at: stored.carrier, pool: poolOf(domain, stored.type) };
}

export function carrierRoutes(router: Router, c: TeamCollections & DomainCollections & TrackingCollections & OfflineCollections & TelephonyCollections, can: Can, connections: CarrierConnections, publicUrl: string): void {
  const numbers = new CarrierNumbers(c, connections, publicUrl);
  const check = new NumberCheck(c, connections, publicUrl);

  /** Checks now that every number imported or bought through the carrier still sends its calls here. */
  router.post('/account/carrier/check', can(RULES.manageAccount, 'carrier.check'), async (ctx) => {
    const { checked, miswired } = await carrierCall(() => check.account(accountIdOf(ctx)));
    ctx.body = { checked, miswired: miswired.map((m) => ({ ...m, number: e164Of(m.number) })) };
  });
  router.get('/account/carrier', can(RULES.manageAccount), async (ctx) => {
    ctx.body = await connections.view(accountIdOf(ctx));
  });

  router.put('/account/carrier', can(RULES.manageAccount, 'carrier.connect'), parseBody, async (ctx) => {
    const body = valid(carrierConnectBody, bodyOf(ctx.request));
    auditing(ctx, { provider: body.provider, accountSid: body.accountSid, apiKey: body.apiKey ?? null });
    ctx.body = await carrierCall(() => connections.connect(accountIdOf(ctx), body));
  });

  router.delete('/account/carrier', can(RULES.manageAccount, 'carrier.disconnect'), async (ctx) => {
    if (!(await connections.disconnect(accountIdOf(ctx)))) throw new ManageFailure(404, 'No carrier account is connected');
    ctx.status = 204;
  });

  /** Imports the carrier account's numbers into the pool, each wired here (its former URLs kept). */
  router.post('/domains/:domain/pools/:type/numbers/import', can(RULES.manageDomain, 'numbers.import'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const body = valid(importBody, bodyOf(ctx.request));
    const pool = await poolOrMade(c, domain, Number(ctx.params.type));
    const results = await carrierCall(() => numbers.importInto(domain, pool, body.numbers));
    auditing(ctx, { type: pool.type, numbers: results.filter((r) => r.ok).map((r) => r.number) });
    ctx.body = { results };
  });

  /** The numbers on sale for the pool now (its type, the domain's country), up to 20: what a person looks at before buying. */
  router.get('/domains/:domain/pools/:type/numbers/available', can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const pool = poolOf(domain, Number(ctx.params.type));
    const query = valid(searchQuery, ctx.query);
    const answer = await carrierCall(() => numbers.available(domain, pool, query));
    ctx.body = answer;
  });

  /** What `count` numbers of the pool's type cost a month (the carrier's Pricing API): shown and confirmed before buying. */
  router.get('/domains/:domain/pools/:type/numbers/price', can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const pool = poolOf(domain, Number(ctx.params.type));
    const { count } = valid(priceQuery, ctx.query);
    ctx.body = await carrierCall(() => numbers.quote(domain, pool, count));
  });

  /** Buys numbers into the pool at the carrier, each wired at once; each number's outcome. */
  router.post('/domains/:domain/pools/:type/numbers/buy', can(RULES.manageDomain, 'numbers.buy'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const body = valid(buyBody, bodyOf(ctx.request));
    const pool = await poolOrMade(c, domain, Number(ctx.params.type));
    const { answer, price } = await carrierCall(() => numbers.buyInto(domain, pool, body));
    // Who bought what for how much, in the domain's words and format.
    const bought = answer.results.filter((r) => r.ok).map((r) => r.number);
    auditing(ctx, { pool: poolWords(pool.type), count: body.count, bought: bought.map((n) => displayOf(normalizePhone(n) ?? n, countryOf(domain))), monthlyPrice: price ? money(price.amount, price.currency) : 'not listed', monthlyTotal: price ? money(price.amount * bought.length, price.currency) : 'not listed' });
    ctx.body = answer;
  });

  /** What releasing the number would do, and its calls of the last 30 days: what a person confirms. */
  router.get('/domains/:domain/numbers/:number/release', can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const { number, at } = await numberAtCarrier(c, ctx, domain);
    const since = new Date(Date.now() - 30 * 86_400_000);
    const callsLast30Days = await c.calls.countDocuments({ domainId: domain._id, trackingNumber: number, startedAt: { $gte: since } }, { limit: 100_000 });
    ctx.body = { number: e164Of(number), origin: at.origin, released: releasedWord(at), callsLast30Days };
  });

  /** Takes the number out of its pool and gives it back: an imported one with its URLs as they were,
   * a bought one released at the carrier. A number in use stays (409). */
  router.post('/domains/:domain/numbers/:number/release', can(RULES.manageDomain, 'numbers.release'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const { number, at, pool } = await numberAtCarrier(c, ctx, domain);
    auditing(ctx, { number, origin: at.origin });
    await removeNumber(c, domain, number);
    await carrierCall(() => numbers.giveBack(domain, pool, number, at));
    ctx.body = { number: e164Of(number), released: releasedWord(at) };
  });

  /** Wires the number to the collector again (the check found its calls going elsewhere). */
  router.post('/domains/:domain/numbers/:number/fix', can(RULES.manageDomain, 'numbers.fix'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const { number, at } = await numberAtCarrier(c, ctx, domain);
    auditing(ctx, { number });
    const wired = await carrierCall(() => numbers.fix(domain, number, at));
    ctx.body = { number: e164Of(number), voiceUrl: wired.voiceUrl };
  });

  /** The carrier account's numbers: where their calls go now, and the pool each is in here (null: none). */
  router.get('/account/carrier/numbers', can(RULES.manageAccount), async (ctx) => {
    const accountId = accountIdOf(ctx);
    const carrier = await carrierCall(() => connections.carrierOf(accountId));
    if (!carrier) throw new ManageFailure(409, 'No carrier account is connected: connect one first');
    const numbers = await carrierCall(() => carrier.listNumbers());
    const domains = (await c.domains.find({ accountId }, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
    const canonical = new Map(numbers.map((n) => [n.number, normalizePhone(n.number)]));
    const tracked = await c.trackingNumbers.find({ _id: { $in: [...canonical.values()].filter((n): n is string => n !== null) }, domainId: { $in: domains } }, { projection: { domainId: 1, type: 1 } }).toArray();
    const poolOf = new Map(tracked.map((t) => [t._id, { domain: t.domainId, type: t.type }]));
    const wiring = twilioWiring(publicUrl);
    ctx.body = {
      numbers: numbers.map((n) => ({
        number: n.number,
        friendlyName: n.friendlyName,
        voiceUrl: n.voiceUrl,
        statusCallback: n.statusCallback,
        smsUrl: n.smsUrl,
        pool: poolOf.get(canonical.get(n.number) ?? '') ?? null,
        wiredHere: n.voiceUrl === wiring.voiceUrl,
      })),
      // How each number is written in its own country, keyed by its canonical form (the screens' phoneDisplay).
      phoneDisplay: Object.fromEntries(numbers.flatMap((n) => (canonical.get(n.number) ? [[canonical.get(n.number)!, displayInItsCountry(n.number)]] : []))),
    };
  });
}
