// The account's dialling rules as an owner writes them (`PUT /account/dialling`) and as the back
// end shows them: the countries calls and texts may go to (absent: its domains'), the special ranges
// allowed, and the hourly limits of calls placed and texts sent.
import { z } from 'zod';
import { isCountry } from '../domains/phone-numbers.ts';
import type { AccountDialling } from '../team/documents.ts';
import { DEFAULT_DIAL_LIMITS, limitsOf } from './limits.ts';
import { RANGE_WORDS, SPECIAL_RANGES } from './rules.ts';

const perHour = z.number().int('must be a whole number').min(0, 'must be 0 to 10000').max(10_000, 'must be 0 to 10000');

export const diallingBody = z
  .object({
    countries: z
      .array(z.string().transform((code) => code.trim().toUpperCase()).refine(isCountry, 'must be an ISO 3166-1 alpha-2 country code, such as FR, US or GB'))
      .max(250, 'at most 250 countries')
      .nullable()
      .optional()
      .describe("The countries calls and texts may go to; null: the countries of the account's domains"),
    allowed: z.array(z.enum(SPECIAL_RANGES, { error: `must be one of ${SPECIAL_RANGES.join(', ')}` })).max(SPECIAL_RANGES.length).optional().describe('Special ranges allowed: premium-rate, shared-cost, personal-number, satellite, pager, uan, voicemail'),
    limits: z
      .object({ callsPerMember: perHour.optional(), callsPerAccount: perHour.optional(), textsPerMember: perHour.optional(), textsPerAccount: perHour.optional() })
      .strict()
      .optional()
      .describe(`Calls placed and texts sent an hour, per member and per account (defaults ${JSON.stringify(DEFAULT_DIAL_LIMITS)})`),
  })
  .strict();

export type DiallingBody = z.infer<typeof diallingBody>;

/** The stored rules after `body`: what it names replaces, what it leaves out stays. */
export function diallingAfter(now: AccountDialling | undefined, body: DiallingBody): AccountDialling {
  const next: AccountDialling = { ...now };
  if (body.countries === null) delete next.countries;
  else if (body.countries) next.countries = [...new Set(body.countries)].sort();
  if (body.allowed) next.allowed = [...new Set(body.allowed)];
  if (body.limits) next.limits = { ...now?.limits, ...body.limits };
  return next;
}

/** The rules as the back end shows them: what applies now, and what each range means. */
export function diallingView(stored: AccountDialling | undefined, countries: string[]) {
  return {
    countries,
    countriesOwn: Boolean(stored?.countries),
    allowed: stored?.allowed ?? [],
    limits: limitsOf(stored),
    ranges: SPECIAL_RANGES.map((range) => ({ range, words: RANGE_WORDS[range] })),
  };
}
