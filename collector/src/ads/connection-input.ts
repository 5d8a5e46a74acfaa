// What a person sends to connect a domain to an ad platform (`PUT …/ads/{platform}`), checked field
// by field: the platform's ids and its credentials. The credentials are checked further (a service
// account key's shape, then the platform itself) by connections.ts before anything is sealed.
import { z } from 'zod';
import type { AdsPlatform } from './documents.ts';

/** An id of digits, as the platform shows it (`123-456-7890` for a Google Ads customer). */
const numberId = z
  .string({ error: 'must be a number' })
  .trim()
  .transform((v) => v.replace(/-/g, ''))
  .pipe(z.string().regex(/^\d{1,20}$/, 'must be a number'));
const secret = z.string().trim().min(1, 'must not be empty').max(4000, 'must be at most 4000 characters');
const oauth = z.object({ clientId: secret.describe('The OAuth client id'), clientSecret: secret.optional().describe('The OAuth client secret (none for a public client)'), refreshToken: secret.describe('A refresh token of the account, with the scope the platform needs') }).strict();

export const googleConnection = z
  .object({
    operatingAccountId: numberId.describe('The Google Ads account of the conversion action (its customer id, 123-456-7890)'),
    conversionActionId: numberId.describe('The conversion action to credit, of type UPLOAD_CLICKS (its id)'),
    loginAccountId: numberId.optional().describe('The manager account through which the credentials reach it, if any'),
    serviceAccountKey: z.union([z.string().max(20_000, 'must be at most 20000 characters'), z.record(z.string(), z.unknown())]).optional().describe("A service account's key: the JSON file Google gives, whole"),
    oauth: oauth.optional().describe('Or an OAuth client and refresh token of a user with access to the account'),
  })
  .strict()
  .refine((b) => (b.serviceAccountKey === undefined) !== (b.oauth === undefined), { message: 'give serviceAccountKey or oauth', path: ['serviceAccountKey'] });

export const microsoftConnection = z
  .object({
    customerId: numberId.describe('The Microsoft Advertising customer (CustomerId)'),
    accountId: numberId.describe('The ad account (CustomerAccountId)'),
    conversionName: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').describe('The offline conversion goal to credit, by its name'),
    developerToken: secret.describe('The developer token'),
    oauth: oauth.describe('The OAuth client and refresh token (scope https://ads.microsoft.com/msads.manage offline_access)'),
  })
  .strict();

export const metaConnection = z
  .object({
    datasetId: numberId.describe('The dataset (or pixel) to send the events to'),
    accessToken: secret.describe("A system user's access token with access to the dataset"),
  })
  .strict();

export const CONNECTION_BODIES = { google: googleConnection, microsoft: microsoftConnection, meta: metaConnection } satisfies Record<AdsPlatform, z.ZodType>;
export type ConnectionBody<P extends AdsPlatform> = z.infer<(typeof CONNECTION_BODIES)[P]>;
