// What the form door never keeps, whatever sent it: fields named like a password or a payment card,
// and values that are a card number. The tag leaves them out already, by the same rule
// (shared/src/secret-fields.ts); a request made by hand, or an old tag, is held to it here.
import { isCardNumber, SECRET_FIELD_NAME } from '@ringtrail/shared';

export { isCardNumber };

export function isSecretField(name: string, value: string): boolean {
  return SECRET_FIELD_NAME.test(name) || isCardNumber(value);
}

/** The fields without their secrets. */
export function withoutSecrets(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([name, value]) => !isSecretField(name, value)));
}
