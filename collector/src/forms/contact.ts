// The contact in a form's fields: the phone number and e-mail address that join a submission to the
// person's other contacts (a call from that number). Found by the field's name, then by its value.
import { canonicalIn } from '../domains/phone-numbers.ts';

const PHONE_NAME = /phone|tel|mobile|portable|telephone/i;
const EMAIL_NAME = /e-?mail|courriel/i;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{2,}$/;

export function contactOf(fields: Record<string, string>, country: string): { phone: string | null; email: string | null } {
  const entries = Object.entries(fields).map(([name, value]) => [name, value.trim()] as const);
  const emailValue = entries.find(([name, v]) => EMAIL_NAME.test(name) && EMAIL.test(v))?.[1] ?? entries.find(([, v]) => EMAIL.test(v))?.[1] ?? null;
  const phoneValue = entries.find(([name, v]) => PHONE_NAME.test(name) && /\d{6}/.test(v.replace(/\D/g, '')))?.[1] ?? null;
  return { phone: phoneValue ? canonicalIn(phoneValue, country) : null, email: emailValue ? emailValue.toLowerCase() : null };
}
