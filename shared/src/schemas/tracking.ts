// Wire formats of the call tracking service (spec document 1): /ospView, /ospClick, /ospExpiration.
import { z } from 'zod';
import { isKnownNumberType } from '../number-types.ts';
import { normalizePhone } from '../phone.ts';
import { httpUrl, wireBool, wireInt, wireText } from './wire.ts';

export const CLIENT_DATA_MAX_CHARS = 500;

const numberType = wireInt.refine(isKnownNumberType, 'is not a known tracking number type');

const expiration = wireInt.refine((v) => v >= -1, 'must be -1, 0 or a positive number of seconds');

/** Arbitrary data keyed by phone number, each entry at most 500 characters; echoed back as sent. */
const clientDataEntry = z.unknown().refine(
  (v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '').length <= CLIENT_DATA_MAX_CHARS,
  `entries must be at most ${CLIENT_DATA_MAX_CHARS} characters`,
);
const clientData = z.union([z.record(z.string(), clientDataEntry), z.array(clientDataEntry)], {
  error: 'must be an array keyed by phone number',
});

export interface RequestedPhone {
  /** The number as the client sent it, without its `:<typeId>` suffix: the key of `surtaxPhones`. */
  original: string;
  digits: string;
  type?: number;
}

/** Numbers one /ospView may ask for (ours): a page shows a few; each is a claim on the pool, so a
 * request listing thousands would take a pool in one go, one database write after another. (The
 * browser doors take any list: only the domain's own site phones found in it are claimed.) */
export const MAX_PHONES_PER_VIEW = 50;

/** `phones`: comma-separated numbers, each optionally suffixed with `:<typeId>`; a number written
 * twice the same way is one (it has one key in `surtaxPhones`, so it gets one number). */
const phoneList = wireText.transform((value, ctx): RequestedPhone[] => {
  const phones: RequestedPhone[] = [];
  for (const entry of new Set(value.split(',').map((p) => p.trim()).filter(Boolean))) {
    const [original = '', typeText, ...rest] = entry.split(':');
    const digits = normalizePhone(original);
    const type = typeText === undefined ? undefined : Number(typeText);
    if (!digits || rest.length > 0) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not a phone number` });
    } else if (type !== undefined && !(/^\d+$/.test(typeText ?? '') && isKnownNumberType(type))) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" has an unknown type suffix` });
    } else {
      phones.push({ original: original.trim(), digits, ...(type === undefined ? {} : { type }) });
    }
  }
  return phones;
});

const visitorAgent = {
  user_agent: wireText.optional(),
};

/** /ospView's fields but for the key and the ip: the browser door takes those from elsewhere. */
export const ospViewFields = z.object({
  visit_id: wireInt.refine((v) => v >= 0, 'must be 0 or a visitId'),
  url: httpUrl,
  page_title: wireText,
  is_mobile: wireBool,
  referer_url: wireText,
  nr_phones: wireInt.refine((v) => v >= 0, 'must be 0 or more'),
  direct_display: wireBool,
  phones: phoneList.optional(),
  client_data: clientData.optional(),
  type: numberType.optional(),
  expiration: expiration.optional(),
  unique_visitor_id: wireText.max(200, 'must be at most 200 characters').optional(),
  unique_view_id: wireText.max(200, 'must be at most 200 characters').optional(),
  /** Ours: GA4's client id (`_ga` cookie, `123.456`) and session id (`_ga_<stream>`), so that the
   * sale joins the visitor's GA4 session; empty: unknown. */
  ga_client_id: wireText.regex(/^(\d+\.\d+)?$/, 'must be the client id of a _ga cookie, such as 1234567890.1712345678').optional(),
  ga_session_id: wireText.regex(/^\d*$/, 'must be the digits of a GA4 session id').optional(),
  ...visitorAgent,
});

const { visit_id, ...afterVisitId } = ospViewFields.shape;
export const ospViewRequest = z
  .object({ api_key: wireText, visit_id, ip: z.ipv4({ error: 'must be an IPv4 address' }), ...afterVisitId })
  .superRefine((req, ctx) => {
    if (req.direct_display && req.phones === undefined) {
      ctx.addIssue({ code: 'custom', path: ['phones'], message: 'is required in direct display' });
    }
    if ((req.phones?.length ?? 0) > MAX_PHONES_PER_VIEW) {
      ctx.addIssue({ code: 'custom', path: ['phones'], message: `must list at most ${MAX_PHONES_PER_VIEW} numbers` });
    }
  });
export type OspViewRequest = z.infer<typeof ospViewRequest>;

export const requestedPhone = wireText.transform((value, ctx) => {
  const digits = normalizePhone(value);
  if (!digits) ctx.addIssue({ code: 'custom', message: 'is not a phone number' });
  return { original: value.trim(), digits: digits ?? '' } satisfies RequestedPhone;
});

export const viewId = wireInt.refine((v) => v > 0, 'must be a viewId');

export const ospClickRequest = z.object({
  api_key: wireText,
  phone: requestedPhone,
  view_id: viewId.optional(),
  type: numberType.optional(),
  expiration: expiration.optional(),
  client_data: clientData.optional(),
  ...visitorAgent,
});
export type OspClickRequest = z.infer<typeof ospClickRequest>;

/** The number to extend and, for a shared number, the code that says which visitor (our extension). */
export const heldNumber = {
  surtax_phone: wireText.refine((v) => normalizePhone(v) !== null, 'is not a phone number'),
  surtax_phone_code: wireText.regex(/^\d+$/, 'must be digits').optional(),
};

export const ospExpirationRequest = z.object({
  api_key: wireText,
  ...heldNumber,
  expiration: expiration.optional(),
  ...visitorAgent,
});
export type OspExpirationRequest = z.infer<typeof ospExpirationRequest>;

export const trackingStatus = z.enum([
  'OK',
  'WARNING',
  'MISSING_PARAMETER',
  'INVALID_PARAMETER',
  'AUTHENTICATION_ERROR',
  'SYSTEM_ERROR',
]);
export type TrackingStatus = z.infer<typeof trackingStatus>;

export const surtaxPhone = z.object({
  surtaxPhoneNumber: z.string(),
  surtaxPhoneCode: z.string().nullable(),
});
export type SurtaxPhone = z.infer<typeof surtaxPhone>;

export const ospViewResponse = z.object({
  status: z.literal('OK'),
  visitId: z.number().int(),
  viewId: z.number().int(),
  surtaxPhones: z.record(z.string(), surtaxPhone).optional(),
  clientData: z.unknown().optional(),
});
export type OspViewResponse = z.infer<typeof ospViewResponse>;

export const ospClickResponse = z.object({
  status: z.literal('OK'),
  visitId: z.number().int(),
  viewId: z.number().int(),
  surtaxPhone,
  clientData: z.unknown(),
});
export type OspClickResponse = z.infer<typeof ospClickResponse>;

export const ospExpirationResponse = z.object({
  status: z.literal('OK'),
  surtaxPhone: z.string(),
  expiresAt: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
});
export type OspExpirationResponse = z.infer<typeof ospExpirationResponse>;

/** Every non-OK answer; a `/ospView` WARNING also carries the ids of the view it recorded. */
export const trackingProblem = z.object({
  status: trackingStatus.exclude(['OK']),
  errorMessage: z.string(),
  visitId: z.number().int().optional(),
  viewId: z.number().int().optional(),
  /** Ours, the browser door's: the fields its form capture takes, when the pool ran out (the capture loads all the same). */
  forms: z.array(z.string()).optional(),
});
export type TrackingProblem = z.infer<typeof trackingProblem>;
