// Where the account's calls and texts may go (issue 79), as one pure check: every number RingTrail
// dials or texts on the owner's bill (click-to-call, a member's phone, a flow's plain target or
// forward, the no-answer redirect, a text) passes `diallingRefusal` first. A number must be valid,
// of a country the account allows (default: its domains' countries), and of no special range the
// owner has not allowed: premium-rate, shared-cost, personal numbers, satellite and international
// networks are where toll fraud sends its calls (libphonenumber's number types tell them).
import { parsePhoneNumberFromString, type NumberType } from 'libphonenumber-js/max';
import { e164Of } from '../domains/phone-numbers.ts';

/** The special ranges an owner may allow, ours; everything else (fixed lines, mobiles, toll-free, VoIP) may be dialled in an allowed country. */
export const SPECIAL_RANGES = ['premium-rate', 'shared-cost', 'personal-number', 'satellite', 'pager', 'uan', 'voicemail'] as const;
export type SpecialRange = (typeof SPECIAL_RANGES)[number];

export const RANGE_WORDS: Record<SpecialRange, string> = {
  'premium-rate': 'a premium-rate number',
  'shared-cost': 'a shared-cost number',
  'personal-number': 'a personal (follow-me) number',
  satellite: 'a satellite or international network number',
  pager: 'a pager number',
  uan: 'a universal access number',
  voicemail: 'a voicemail access number',
};

const RANGE_OF_TYPE: Partial<Record<NumberType & string, SpecialRange>> = {
  PREMIUM_RATE: 'premium-rate',
  SHARED_COST: 'shared-cost',
  PERSONAL_NUMBER: 'personal-number',
  PAGER: 'pager',
  UAN: 'uan',
  VOICEMAIL: 'voicemail',
};

/** An account's dialling rules, as they apply now. */
export interface DiallingPolicy {
  /** ISO 3166-1 alpha-2 codes of the countries calls and texts may go to. */
  countries: string[];
  /** The special ranges an owner allowed. */
  allowed: SpecialRange[];
}

/** The special range of a number (canonical), or null for an ordinary one. Numbers of no country
 * (+870, +881, +882, +883…: Inmarsat, Iridium, the international networks) are satellite. */
export function specialRangeOf(canonical: string): SpecialRange | null {
  const parsed = parsePhoneNumberFromString(e164Of(canonical));
  if (!parsed) return null;
  if (!parsed.country) return 'satellite';
  const type = parsed.getType();
  return (type && RANGE_OF_TYPE[type]) ?? null;
}

/** The number (canonical) as anyone reads it: +44 909 879 0000. */
export function internationalOf(canonical: string): string {
  return parsePhoneNumberFromString(e164Of(canonical))?.formatInternational() ?? e164Of(canonical);
}

/** Why the account may not dial or text `canonical`, or null when it may. */
export function diallingRefusal(canonical: string, policy: DiallingPolicy): string | null {
  const shown = internationalOf(canonical);
  const parsed = parsePhoneNumberFromString(e164Of(canonical));
  if (!parsed) return `${shown} is not a phone number`;
  const range = specialRangeOf(canonical);
  if (range && !policy.allowed.includes(range)) return `${shown} is ${RANGE_WORDS[range]}: calls and texts to such numbers are refused unless an owner allows them (Account, Dialling)`;
  if (range === 'satellite') return null;
  if (!parsed.isValid()) return `${shown} is not a valid phone number`;
  if (!policy.countries.includes(parsed.country!)) return `${shown} is a number of ${parsed.country}, and this account calls and texts ${listOf(policy.countries)} only: an owner adds countries in Account, Dialling`;
  return null;
}

const listOf = (countries: string[]) => (countries.length ? countries.join(', ') : 'no country');
