// Figures as people read them.
import { cameFrom } from '../../telephony/whisper.ts';
export { change, count, money, percent, pointsChange, ratio } from '../../reports/figures.ts';

export function duration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  return m ? `${m} min ${seconds % 60} s` : `${seconds} s`;
}

/** How the server said to write numbers its answers carried (`phoneDisplay`: `(312) 555-0140` for a
 * US domain's `3125550140`); libphonenumber stays on the server. */
const written = new Map<string, string>();

export function rememberPhoneDisplay(display: Record<string, string> | undefined): void {
  for (const [digits, text] of Object.entries(display ?? {})) written.set(digits, text);
}

/** As the server said to write it, else as it is: the site's numbers in a form to edit. */
export const phoneAsWritten = (digits: string) => written.get(digits) ?? digits;

/** As the server said to write it, else in pairs: `0123456789` -> `01 23 45 67 89`. */
/** An E.164 number in the canonical form the answers' phoneDisplay is keyed by: `+33…` -> `0…`, `+1…` -> `001…`. */
export { asDialledFromFrance as canonicalOf } from '../../../../shared/src/phone.ts';

export const phone = (digits: string | null) => (digits ? (written.get(digits) ?? digits.replace(/(\d\d)(?=\d)/g, '$1 ')) : '');

/** A text ending as a sentence, once: another's words (a platform's error) may end with a period already. */
export const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** Appendix A's statuses as the back end shows them; the code itself is the title and the CSV's. */
export { OUTCOME_WORDS as STATUS_LABELS } from '../../telephony/outcome.ts';

/** A source (`paid:google`, `referral:example.com`) in words, as the whisper and the alert mails say
 * it (telephony/whisper.ts): `Google Ads`, `a link on example.com`, `the Flyer campaign`; the CSV and
 * the filters keep the label itself. */
export const sourceWords = (source: string, offlineDescription: string | null = null) => cameFrom({ source, keyword: null, offlineDescription });

/** A call that no visit led to: one name on every screen and in the CSV. */
export const UNATTRIBUTED = 'unattributed';

import type { Clock } from '../../domains/dates.ts';

export { day, localeOf, when, type Clock } from '../../domains/dates.ts';

/** The account's own screens (members, sessions, activity, deliveries) span domains: the browser's. */
export const BROWSER_CLOCK: Clock = { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, locale: navigator.language || 'en-US' };

