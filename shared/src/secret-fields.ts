// Form fields never captured, by the tag (tracker/src/forms.ts) nor kept by the form door
// (collector/src/forms/secret-fields.ts): one rule for both. No zod here: the tag bundles it.

/** Names of secrets: password, passwd, pwd, passcode, pin, secret, and every payment card field. */
export const SECRET_FIELD_NAME = /password|passwd|passcode|passphrase|(^|[^a-z])(pass|pwd|pin)($|[^a-z])|secret|card|cc-?(num|number|csc|cvv|exp)|cvv|cvc|csc|iban|expir/i;

/** 13 to 19 digits, spaces or dashes between them, that pass the Luhn check: a payment card number. */
export function isCardNumber(value: string): boolean {
  if (!/^[\d][\d -]{11,30}[\d]$/.test(value.trim())) return false;
  const digits = value.replace(/[ -]/g, '');
  return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
}

/** The Luhn check of a string of digits (payment card numbers pass it). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}
