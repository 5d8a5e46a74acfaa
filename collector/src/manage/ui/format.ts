// Figures as people read them.
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
export const phone = (digits: string | null) => (digits ? (written.get(digits) ?? digits.replace(/(\d\d)(?=\d)/g, '$1 ')) : '');

/** Appendix A's statuses as the back end shows them; the code itself is the title and the CSV's. */
export { OUTCOME_WORDS as STATUS_LABELS } from '../../telephony/outcome.ts';

/** What a source class is called in a sentence. */
const SOURCE_CLASS_WORDS: Record<string, string> = { paid: 'paid ads', organic: 'search', social: 'social media', referral: 'a link', direct: 'a direct visit', offline: 'an offline number', unattributed: 'unattributed' };

/** A source (`paid:google`, `referral:example.com`, `direct`) in words: `Google (paid ads)`,
 * `example.com (a link)`, `a direct visit`; the CSV and the filters keep the label itself. */
export function sourceWords(label: string | null): string {
  if (!label) return SOURCE_CLASS_WORDS.unattributed!;
  const at = label.indexOf(':');
  const kind = at < 0 ? label : label.slice(0, at);
  const name = at < 0 ? '' : label.slice(at + 1);
  const words = SOURCE_CLASS_WORDS[kind] ?? kind;
  return name ? `${kind === 'referral' ? name : name.charAt(0).toUpperCase() + name.slice(1)} (${words})` : words;
}

/** A call that no visit led to: one name on every screen and in the CSV. */
export const UNATTRIBUTED = 'unattributed';

import type { Clock } from '../../domains/dates.ts';

export { day, localeOf, when, type Clock } from '../../domains/dates.ts';

/** The account's own screens (members, sessions, activity, deliveries) span domains: the browser's. */
export const BROWSER_CLOCK: Clock = { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, locale: navigator.language || 'en-US' };

