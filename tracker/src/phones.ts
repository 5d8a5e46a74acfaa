// What a phone number looks like in page text, and a tracking number written the way the site wrote its own.

/** A phone-like run: digits and bracketed groups, each step after a single separator
 * (space, no-break space, dot, dash, slash), so two numbers or a price next to a number stay apart. */
export const PHONE_PATTERN = /\+?(?:\(\+?\d+\)|\d)(?:[ \u00a0\u202f.\-/]?(?:\(\d+\)|\d))+/g;

/** A tracking number (dotted, as the collector answers it) written in the format of `original`:
 * same separators, same international or national prefix ("+33 1 23 45 67 89" -> "+33 8 00 00 00 01").
 * A number whose digits do not fit the original's layout stays dotted. */
export function formatLike({ text: original, phone: national }: { text: string; phone: string }, dotted: string): string {
  const slots = original.replace(/\D/g, '');
  // The original's digits with its national part after the trunk 0 replaced by the tracking number's.
  const fill = slots.replace(national.slice(1), dotted.replace(/\D/g, '').slice(1));
  let i = 0;
  return fill != slots && fill.length == slots.length ? original.replace(/\d/g, () => fill[i++]!) : dotted;
}
