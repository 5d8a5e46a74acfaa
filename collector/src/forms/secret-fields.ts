// What the form door never keeps, whatever sent it: fields named like a password (in any of the
// languages SECRET_FIELD_NAME knows) or a payment card, values that are a card number, and card
// numbers inside a value's text (`[redacted]`). The tag leaves the fields out already, by the same
// rule (shared/src/secret-fields.ts); a request made by hand, or an old tag, is held to it here.
import { isCardNumber, SECRET_FIELD_NAME, withoutCardNumbers } from '@ringtrail/shared';

export { isCardNumber };

export function isSecretField(name: string, value: string): boolean {
  return SECRET_FIELD_NAME.test(name) || isCardNumber(value);
}

/** The fields without their secrets, and the card numbers inside the others' text. */
export function withoutSecrets(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).flatMap(([name, value]) => (isSecretField(name, value) ? [] : [[name, withoutCardNumbers(value)]])));
}
