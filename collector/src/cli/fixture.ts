// The seed fixture format: accounts, their domains, keys and number pools.
import { z } from 'zod';
import { alertChoicesBody } from '../alerts/choices.ts';
import { countryOfBody, domainName, domainSettingsIn, phoneIn, poolNumbersCountry, poolSettingsIn, shapedByInput } from '../domains/settings.ts';
import { webhookEvents } from '../webhooks/events.ts';
import { flowBodyIn } from '../flows/steps.ts';
import { DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { signUpBody } from '../team/sign-up.ts';
import { ROLES } from '../team/roles.ts';

const key = z.string().min(8, 'keys must be at least 8 characters');

const poolIn = (country: string) => poolSettingsIn(country).and(z.object({ numbers: z.array(phoneIn(country)).min(1) }));

/** A domain of the fixture, its numbers read in its `country` (its pools' as their type says). */
const domain = shapedByInput((raw) => {
  const country = countryOfBody(raw);
  return domainSettingsIn(country).extend({
    name: domainName,
    apiKey: key.optional(),
    dataApiKey: key.optional(),
    offlineApiKey: key.optional(),
    customerKey: key.optional(),
    publicKey: key.optional(),
    pools: z.array(shapedByInput((pool) => poolIn(poolNumbersCountry(pool.type, country)))).default([]),
    /** Callers refused (ours): added to the domain's blocklist, never removed from it by a seed. */
    blockedCallers: z.array(phoneIn(country)).default([]),
    /** Call flows (ours, flows/): stored by name, a flow of the same name replaced. */
    callFlows: z.array(flowBodyIn(country)).default([]),
  });
});

export const fixtureSchema = z.object({
  accounts: z.array(
    z.object({
      name: z.string().min(1),
      callCenterApiKey: key.optional(),
      webhookUrl: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
      webhookSecret: z.string().regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'must be whsec_ and at least 24 random bytes in base64').optional(),
      /** Ours: pushes beside view, cart and order (`call`). */
      webhookEvents: webhookEvents.optional(),
      /** The back end's members of the account: without a role, an owner; `domains` limits what
       * they see (analysts and agents see only those given); `alerts` their e-mail alerts. */
      users: z
        .array(
          z.object({
            username: signUpBody.shape.username,
            password: signUpBody.shape.password.optional(),
            role: z.enum(ROLES).default('owner'),
            domains: z.array(domainName).optional(),
            /** Ours: their alert choices per domain (alerts/choices.ts); the rest their role's defaults. */
            alerts: z.record(domainName, alertChoicesBody).optional(),
            /** Ours (flows/): the phone their ring groups ring (with its country code, or French), and whether they take calls. */
            phone: phoneIn(DEFAULT_COUNTRY).optional(),
            available: z.boolean().optional(),
          }),
        )
        .default([]),
      domains: z.array(domain).default([]),
    }).refine((a) => !a.webhookUrl || a.webhookSecret, { message: 'a webhookUrl needs a webhookSecret to sign its pushes', path: ['webhookSecret'] }),
  ),
});
export type Fixture = z.infer<typeof fixtureSchema>;
