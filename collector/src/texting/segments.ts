// How many SMS segments a text takes, as the carriers bill it: the GSM-7 alphabet packs 160
// characters in one segment and 153 in each of several (its extension characters ^{}\[~]|€ take two);
// any other character makes the whole text UCS-2: 70 in one, 67 in each of several (a character
// outside the basic plane takes two). Shown as one types; a text is at most MAX_TEXT_LENGTH long.
export const MAX_TEXT_LENGTH = 1600;

const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';

export interface Segments {
  encoding: 'GSM-7' | 'UCS-2';
  /** Units used: GSM-7 septets, or UCS-2 code units. */
  units: number;
  segments: number;
}

export function segmentsOf(text: string): Segments {
  let septets = 0;
  for (const ch of text) {
    if (GSM_BASIC.includes(ch)) septets += 1;
    else if (GSM_EXTENDED.includes(ch)) septets += 2;
    else {
      const units = text.length; // UTF-16 code units: a character outside the basic plane counts two
      return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { encoding: 'GSM-7', units: septets, segments: septets === 0 ? 0 : septets <= 160 ? 1 : Math.ceil(septets / 153) };
}
