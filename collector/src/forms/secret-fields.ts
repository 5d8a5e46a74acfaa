// What the form door never keeps, whatever sent it: fields named like a password or a payment card,
// and values that are a card number. The tag leaves them out already (tracker/src/forms.ts); a
// request made by hand, or an old tag, is held to the same rule here.

/** Names of secrets: password, passwd, pwd, passcode, pin, secret, and every card field. */
const SECRET_NAME = /password|passwd|passcode|passphrase|(^|[^a-z])(pass|pwd|pin)($|[^a-z])|secret|card|cc-?(num|number|csc|cvv|exp)|cvv|cvc|csc|iban|expir/i;

/** 13 to 19 digits, spaces or dashes between them, that pass the Luhn check: a payment card number. */
export function isCardNumber(value: string): boolean {
  if (!/^[\d][\d -]{11,30}[\d]$/.test(value.trim())) return false;
  const digits = value.replace(/[ -]/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

export function isSecretField(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || isCardNumber(value);
}

/** The fields without their secrets. */
export function withoutSecrets(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([name, value]) => !isSecretField(name, value)));
}
