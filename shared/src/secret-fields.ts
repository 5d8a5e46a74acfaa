// Form fields never captured, by the tag (tracker/src/forms.ts) nor kept by the form door
// (collector/src/forms/secret-fields.ts): one rule for both. No zod here: the tag bundles it.

/** Names of secrets: password, passwd, pwd, passcode, pin, secret, and every payment card field; a
 * password in other languages too (Passwort, Kennwort, mot de passe, contraseña, senha, wachtwoord,
 * parola d'ordine, hasło, lösenord, adgangskode; issue 70). */
export const SECRET_FIELD_NAME = /password|passwd|passcode|passphrase|(^|[^a-z])(pass|pwd|pin)($|[^a-z])|secret|card|cc-?(num|number|csc|cvv|exp)|cvv|cvc|csc|iban|expir|passwort|kennwort|mot.?de.?passe|motdepasse|contrase(n|ñ)a|senha|wachtwoord|parola.?d.?ordine|has(l|ł)o|l(o|ö)senord|adgangskode|salasana|heslo|parol/i;

/** A run of 13 to 19 digits, spaces or dashes between them, inside a text. */
const DIGIT_RUN = /\d(?:[ -]?\d){12,18}/g;

/** A text with the payment card numbers inside it (a message's "my card is 4111 1111 1111 1111")
 * as `[redacted]`, as transcripts are. */
export function withoutCardNumbers(text: string): string {
  return text.replace(DIGIT_RUN, (run) => (passesLuhn(run.replace(/[ -]/g, '')) ? '[redacted]' : run));
}

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
