// The seed fixture format: accounts, their domains, keys and number pools.
import { displayMode, isKnownNumberType, isOfflineNumberType, normalizePhone } from '@ringtrail/shared';
import { z } from 'zod';

const phone = z.string().transform((value, ctx) => {
  const digits = normalizePhone(value);
  if (!digits) ctx.addIssue({ code: 'custom', message: `"${value}" is not a phone number` });
  return digits ?? '';
});

const key = z.string().min(8, 'keys must be at least 8 characters');

const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'is not an IANA time zone');

const pool = z
  .object({
    type: z.number().int().refine(isKnownNumberType, 'is not a known number type'),
    usage: z.enum(['online', 'offline']),
    codeDigits: z.number().int().min(0).max(8).default(0),
    costGroup: z.string().min(1).optional(),
    numbers: z.array(phone).min(1),
  })
  .refine((p) => p.usage === 'online' || isOfflineNumberType(p.type), {
    message: 'offline pools take types 1 to 34 only',
    path: ['type'],
  })
  .refine((p) => p.usage === 'online' || p.codeDigits === 0, {
    message: 'offline numbers cannot be shared',
    path: ['codeDigits'],
  })
  .refine((p) => p.usage === 'offline' || p.costGroup === undefined, {
    message: 'cost groups are for offline pools',
    path: ['costGroup'],
  });

const domain = z.object({
  name: z.string().min(1),
  apiKey: key.optional(),
  dataApiKey: key.optional(),
  offlineApiKey: key.optional(),
  offlineApiEnabled: z.boolean().default(false),
  customerKey: key.optional(),
  publicKey: key.optional(),
  allowedOrigins: z.array(z.url()).default([]),
  sitePhones: z.array(phone).default([]),
  displayMode: displayMode.default('direct'),
  antiFlickerMs: z.number().int().min(0).max(5000).default(1000),
  defaultExpiration: z.number().int().positive().default(1800),
  timeZone: timeZone.default('UTC'),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code').default('EUR'),
  callerPrivacy: z.enum(['none', 'partial', 'full']).default('none'),
  orderStatuses: z.array(z.object({ name: z.string().min(1), isSale: z.boolean() })).default([]),
  ga4MeasurementId: z.string().regex(/^G-[A-Z0-9]+$/, 'must be a GA4 measurement id (G-XXXXXXX)').optional(),
  ga4ApiSecret: z.string().min(1).optional(),
  pools: z.array(pool).default([]),
});

export const fixtureSchema = z.object({
  accounts: z.array(
    z.object({
      name: z.string().min(1),
      callCenterApiKey: key.optional(),
      webhookUrl: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
      webhookSecret: z.string().regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'must be whsec_ and at least 24 random bytes in base64').optional(),
      /** The back end's users of the account. */
      users: z.array(z.object({ username: z.email('must be an e-mail address'), password: z.string().min(10, 'passwords must be at least 10 characters') })).default([]),
      domains: z.array(domain).default([]),
    }).refine((a) => !a.webhookUrl || a.webhookSecret, { message: 'a webhookUrl needs a webhookSecret to sign its pushes', path: ['webhookSecret'] }),
  ),
});
export type Fixture = z.infer<typeof fixtureSchema>;
