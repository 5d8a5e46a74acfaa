// One normalizer and one formatter for every phone number the platform sees.

/** Digits of a phone number in national form ("+33 1 23 45 67 89" -> "0123456789"), or null if it is not one. */
export function normalizePhone(raw: string): string | null {
  const compact = raw.trim().replace(/[\s.\-()/]/g, '');
  let digits: string;
  if (/^\+33\d+$/.test(compact)) digits = '0' + compact.slice(3);
  else if (/^0033\d+$/.test(compact)) digits = '0' + compact.slice(4);
  else if (/^\+\d+$/.test(compact)) digits = '00' + compact.slice(1);
  else digits = compact;
  return /^\d{6,15}$/.test(digits) ? digits : null;
}

/** Dotted groups of two digits, as the spec shows numbers: "0800000001" -> "08.00.00.00.01". */
export function formatDotted(digits: string): string {
  return digits.match(/\d{1,2}/g)?.join('.') ?? '';
}
