// The account's carrier (issue 42): connect a Twilio account (checked at once, the secret sealed),
// see it, remove it, and list its numbers with where they point now. Owners only, as the account's
// webhook and keys are. The carrier's refusals answer in words with its own code, never a 500.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { normalizePhone } from '@ringtrail/shared';
import { CarrierError, type CarrierErrorKind } from '../carriers/carrier.ts';
import { carrierConnectBody, SecretsKeyMissing, type CarrierConnections } from '../carriers/connections.ts';
import { twilioWiring } from '../carriers/wiring.ts';
import type { Collections } from '../db/collections.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { auditing, memberOf, type Can } from './access.ts';
import { RULES } from './roles.ts';
import { valid } from './validate.ts';

const STATUS: Record<CarrierErrorKind, number> = { credentials: 400, unavailable: 400, suspended: 400, refused: 400, 'rate-limited': 429, timeout: 504, unreachable: 502 };

/** Runs a call to the carrier; its refusal as the management API's answer, with the carrier's code. */
export async function carrierCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof CarrierError) throw new ManageFailure(STATUS[err.kind], err.message, undefined, { code: err.code, carrierError: err.kind });
    if (err instanceof SecretsKeyMissing) throw new ManageFailure(409, err.message);
    throw err;
  }
}

const accountIdOf = (ctx: Context) => memberOf(ctx).accountId;

export function carrierRoutes(router: Router, c: Collections, can: Can, connections: CarrierConnections, publicUrl: string): void {
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

  /** The carrier account's numbers: where their calls go now, and the pool each is in here (null: none). */
  router.get('/account/carrier/numbers', can(RULES.manageAccount), async (ctx) => {
    const accountId = accountIdOf(ctx);
    const carrier = await connections.carrierOf(accountId);
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
    };
  });
}
