// What a phone number looks like in page text, and a tracking number written the way the site wrote its own.

/** A phone-like run: digits and bracketed groups, each step after at most one dot or slash with any
 * white space around it, or a dash: a number broken across lines in the markup ("34\n      98", one
 * line on screen) is one number. A dash with spaces around it ("(714) 225 - 1326") joins a last
 * group, never a whole number's worth of digits: "Order 12345678 - 01 23 45 67 89" is two runs. */
export const PHONE_PATTERN = /\+?(?:\(\+?\d+\)|\d)(?:(?:\s+-\s+(?![\d\s]{9})|\s*[./]?\s*|-)(?:\(\d+\)|\d))+/g;

/** A tracking number (dotted, as the collector answers it, in the same form as the site phone it
 * stands for: national, or with its country code) written in the format of `original`: same
 * separators, same prefix ("+33 1 23 45 67 89" -> "+33 8 00 00 00 01", "(415) 555-0199" ->
 * "(415) 555-0142"). The number after its leading zeros (a trunk 0, or the 00 before a country code)
 * takes the site phone's place; one that does not fit the original's layout stays dotted. */
export function formatLike({ text: original, phone }: { text: string; phone: string }, dotted: string): string {
  // A trunk zero in brackets after a country code ("+44 (0)20 ...") is the layout's, not the number's.
  const slots = original.replace(/\(0\)|\D/g, '');
  // One pattern for both (digits only, leading zeros off): the second costs gzip next to nothing.
  const fill = slots.replace(phone.replace(/^0+|\D/g, ''), dotted.replace(/^0+|\D/g, ''));
  let i = 0;
  return fill != slots && fill.length == slots.length ? original.replace(/\(0\)|\d/g, (d) => (d[1] ? d : fill[i++]!)) : dotted;
}
