// A domain's settings, as the fixture and the back end both write them: one schema, one set of
// error messages. Keys and pools are set apart (the fixture names them; the back end makes them).
import { COUNTRY_NUMBER_TYPES, displayMode, HH_MM, isKnownNumberType, isOfflineNumberType, sortTimetable, WEEK_DAYS } from '@ringtrail/shared';
import { domainToASCII } from 'node:url';
import { parse as parseHost } from 'tldts';
import { z } from 'zod';
import { currencyOf } from './locale.ts';
import type { DomainDoc } from './documents.ts';
import { DEFAULT_LEAD_RULE, leadRule } from './lead-rule.ts';
import { DEFAULT_COUNTRY, isCountry, writtenNumberIn } from './phone-numbers.ts';
import { keyPhrasesIn, TRANSCRIPTION_OFF, transcriptionSettings } from './transcription-settings.ts';
import { analysisSettings } from '../analysis/settings.ts';
import { DEFAULT_RECORDING_RETENTION_DAYS, recordingRetentionDays, recordingSettingsIn } from './recording-settings.ts';
import { FORM_TRACKING_OFF, formTrackingSettings } from './form-tracking.ts';

/** A phone number as a domain of `country` writes it, kept in the canonical form (phone-numbers.ts). */
export const phoneIn = (country: string) =>
  z.string().transform((value, ctx) => {
    const digits = writtenNumberIn(value, country);
    const hint = country === DEFAULT_COUNTRY ? '' : ` of ${country}: write another country's number with its country code (+33 1 23 45 67 89)`;
    if (!digits) ctx.addIssue({ code: 'custom', message: `"${value}" is not a phone number${hint}` });
    return digits ?? '';
  });

/** A number of a French domain, or one in the canonical form already (which it leaves as it is). */
export const phone = phoneIn(DEFAULT_COUNTRY);

/** The country a settings body names, or `fallback` when it names none it knows (the schema says why). */
export function countryOfBody(body: Record<string, unknown>, fallback: string = DEFAULT_COUNTRY): string {
  const named = typeof body.country === 'string' ? body.country.trim().toUpperCase() : '';
  return isCountry(named) ? named : fallback;
}

/** A schema made from the input it parses: a fixture's domain, whose numbers are read in the country
 * given beside them, and its pools, whose numbers depend on their type. */
export function shapedByInput<T extends z.ZodType>(make: (raw: Record<string, unknown>) => T) {
  return z.unknown().transform((raw, ctx): z.output<T> => {
    const parsed = make(typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {}).safeParse(raw);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });
}

/** Where a pool's numbers are read: the spec's types (1 to 36) by their French prefixes, as the spec
 * reads them whatever the domain's country; ours (100 to 102) in the domain's country. */
export function poolNumbersCountry(type: unknown, country: string): string {
  return typeof type === 'number' && Object.hasOwn(COUNTRY_NUMBER_TYPES, type) ? country : DEFAULT_COUNTRY;
}

const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'is not an IANA time zone');

/** Numbers of a domain one client address may hold at once, unless the domain says otherwise. */
export const DEFAULT_NUMBERS_PER_ADDRESS = 4;

/** A site's address as browsers send it in `Origin`: scheme, host and port, nothing after (a lone
 * trailing slash is dropped); stored as the browser writes it (lower case, no default port). */
const origin = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).transform((value, ctx) => {
  const url = new URL(value);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password || value.includes('?') || value.includes('#')) {
    ctx.addIssue({ code: 'custom', message: `"${value}" must be an origin, scheme://host[:port], with no path` });
  }
  return url.origin;
});

/**
 * A host name in the one form it is stored and looked up in: without case, without the trailing
 * dot of a fully qualified name, an internationalized name in its ASCII (punycode) form. '' when
 * it is no host name.
 */
export function normalizeDomainName(name: string): string {
  return domainToASCII(name.trim().replace(/\.$/, '').toLowerCase());
}

/** Special-use names (RFC 2606, RFC 6761) taken as suffixes beside the Public Suffix List: a site under
 * development or in documentation (`acme.example`, `shop.test`, `app.localhost`). */
const SPECIAL_USE_SUFFIXES = new Set(['example', 'test', 'localhost']);

/** Why `ascii` (normalized) is no domain of a site, or null when it is one: a host name of labels of
 * 1 to 63 letters, digits and inner dashes, not an address, under a suffix the Public Suffix List
 * knows (tldts), with a name of its own before it (`co.uk` alone is no site). */
function domainNameRefusal(ascii: string): string | null {
  if (ascii.length > 253 || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(ascii)) return 'must be a host name (letters, digits, dots and dashes)';
  if (ascii.split('.').some((label) => label.length > 63)) return 'must be a host name with at most 63 characters between two dots';
  const parsed = parseHost(ascii, { allowPrivateDomains: true });
  if (parsed.isIp) return 'must be a domain name, not an address';
  const known = parsed.isIcann || parsed.isPrivate || SPECIAL_USE_SUFFIXES.has(parsed.publicSuffix ?? '');
  if (!known) return `must end with a public suffix (.com, .co.uk, .fr…): .${parsed.publicSuffix} is none`;
  if (!parsed.domain) return `must name a site under .${parsed.publicSuffix}, not the suffix itself`;
  return null;
}

export const domainName = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(253, 'must be at most 253 characters')
  .transform((name, ctx) => {
    const ascii = normalizeDomainName(name);
    const refusal = domainNameRefusal(ascii);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
    return ascii;
  });

/** When a redirect applies, in the domain's time zone: ranges per day of the week; none: always. */
export const timetableEntries = z
  .array(
    z
      .object({ day: z.enum(WEEK_DAYS, { error: `must be one of ${WEEK_DAYS.join(', ')}` }), from: z.string().regex(HH_MM, 'must be HH:MM'), to: z.string().regex(HH_MM, 'must be HH:MM') })
      .refine((e) => e.from < e.to, { message: 'must end after it starts', path: ['to'] }),
  )
  .max(70)
  .transform(sortTimetable);

/** Ring time before an unanswered call is redirected, unless the domain says otherwise. */
export const DEFAULT_REDIRECT_AFTER_SECONDS = 20;

export const domainSettingsIn = (country: string) => z.object({
  offlineApiEnabled: z.boolean().default(false),
  /** Stored once each, in the form browsers send (two spellings of one origin are one). */
  allowedOrigins: z.array(origin).max(100, 'at most 100 origins').transform((origins) => [...new Set(origins)]).default([]),
  sitePhones: z.array(phoneIn(country)).max(100, 'at most 100 numbers').default([]),
  displayMode: displayMode.default('direct'),
  antiFlickerMs: z.number().int().min(0).max(5000).default(1000),
  numbersPerAddress: z.number().int().min(0).max(10_000).default(DEFAULT_NUMBERS_PER_ADDRESS),
  defaultExpiration: z.number().int().positive().max(86_400 * 30).default(1800),
  timeZone: timeZone.default('UTC'),
  /** Ours: the country the domain's numbers are read in (domains/phone-numbers.ts), ISO 3166-1 alpha-2. */
  country: z
    .string()
    .transform((code) => code.trim().toUpperCase())
    .refine(isCountry, 'must be an ISO 3166-1 alpha-2 country code, such as FR, US or GB')
    .default(DEFAULT_COUNTRY),
  /** Without one, the currency of the domain's country (EUR for a French one). */
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code').default(currencyOf(country)),
  callerPrivacy: z.enum(['none', 'partial', 'full']).default('none'),
  orderStatuses: z.array(z.object({ name: z.string().min(1).max(100), isSale: z.boolean() })).max(100, 'at most 100 statuses').default([]),
  ga4MeasurementId: z.string().regex(/^G-[A-Z0-9]+$/, 'must be a GA4 measurement id (G-XXXXXXX)').optional(),
  ga4ApiSecret: z.string().min(1).optional(),
  /** Ours (telephony/redirects.ts): where calls nobody answers go; null: nowhere. */
  redirectPhone: phoneIn(country).nullable().default(null),
  /** Ours: whether calls to online pool numbers are redirected, and when (offline numbers have their own). */
  redirect: z.object({ enabled: z.boolean().default(false), timetable: timetableEntries.default([]) }).strict().default({ enabled: false, timetable: [] }),
  redirectAfterSeconds: z.number().int().min(5, 'must be 5 to 120 seconds').max(120, 'must be 5 to 120 seconds').default(DEFAULT_REDIRECT_AFTER_SECONDS),
  /** Ours (telephony/whisper.ts): whoever answers hears the call's source first. */
  whisper: z.boolean().default(false),
  /** Ours (telephony/leads.ts): when a call counts as a lead. */
  leadRule: leadRule.default(DEFAULT_LEAD_RULE),
  /** Ours (recording-settings.ts): whether calls are recorded, with what announcement, and for how long kept. */
  recording: recordingSettingsIn(country).default(recordingSettingsIn(country).parse({})),
  recordingRetentionDays: recordingRetentionDays.default(DEFAULT_RECORDING_RETENTION_DAYS),
  /** Ours (form-tracking.ts): whether the site's form submissions are captured, and which extra fields. */
  formTracking: formTrackingSettings.default(FORM_TRACKING_OFF),
  /** Ours (transcription-settings.ts): whether recorded calls are transcribed, in which language, and the phrases spotted. */
  transcription: transcriptionSettings.default(TRANSCRIPTION_OFF),
  keyPhrases: keyPhrasesIn.default([]),
  /** Ours (analysis/settings.ts): whether transcribed calls are read by the language model; absent: off. */
  analysis: analysisSettings.optional(),
});
/** The settings of a French domain, or as stored (numbers in the canonical form). */
export const domainSettings = domainSettingsIn(DEFAULT_COUNTRY);
export type DomainSettings = z.infer<typeof domainSettings>;

export const poolSettingsIn = (country: string) => z
  .object({
    type: z.number().int().refine(isKnownNumberType, 'is not a known number type'),
    usage: z.enum(['online', 'offline']),
    codeDigits: z.number().int().min(0).max(8).default(0),
    costGroup: z.string().min(1).optional(),
    overflowNumber: phoneIn(country).optional(),
  })
  .refine((p) => p.usage === 'online' || isOfflineNumberType(p.type), { message: 'offline pools take the offline reference types, 1 to 34, or ours, 100 to 102', path: ['type'] })
  .refine((p) => p.usage === 'online' || p.codeDigits === 0, { message: 'offline numbers cannot be shared', path: ['codeDigits'] })
  .refine((p) => p.usage === 'offline' || p.costGroup === undefined, { message: 'cost groups are for offline pools', path: ['costGroup'] })
  .refine((p) => p.usage === 'online' || p.overflowNumber === undefined, { message: 'overflow numbers are for online pools', path: ['overflowNumber'] });
export const poolSettings = poolSettingsIn(DEFAULT_COUNTRY);

/** The settings fields of a domain document; GA4 only when both halves are there. */
export function settingsFields(s: DomainSettings): Omit<DomainDoc, '_id' | 'name' | 'accountId' | 'pools' | `${string}Hash`> {
  const { ga4MeasurementId, ga4ApiSecret, ...rest } = s;
  return { ...rest, ...(ga4MeasurementId && ga4ApiSecret ? { ga4MeasurementId, ga4ApiSecret } : {}) };
}
