// The people's identifiers the platforms match a lead by when no click id was kept, normalised as
// each documents and SHA-256 hashed in hexadecimal before they leave: Google's Data Manager API and
// Microsoft's offline conversions take a phone in E.164 (`+33612345678`), Meta its digits with the
// country code and no `+` (`33612345678`); an e-mail address trimmed and in lower case (Google also
// drops the dots of a gmail.com or googlemail.com address's name).
import { createHash } from 'node:crypto';
import { e164Of } from '../domains/phone-numbers.ts';

export const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** A stored number (canonical form) in E.164; null for an anonymous caller or what is no number. */
export function e164(canonical: string | null | undefined): string | null {
  if (!canonical || !/^\d{6,}$/.test(canonical)) return null;
  return e164Of(canonical);
}

/** An e-mail address as every platform normalises it: trimmed, in lower case; null when it is none. */
export function normalEmail(email: string | null | undefined): string | null {
  const trimmed = email?.trim().toLowerCase();
  return trimmed && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) ? trimmed : null;
}

/** Google's form of an address: a Gmail address's name without its dots. */
export function googleEmail(email: string | null | undefined): string | null {
  const normal = normalEmail(email);
  if (!normal) return null;
  const [name, host] = normal.split('@') as [string, string];
  return host === 'gmail.com' || host === 'googlemail.com' ? `${name.replaceAll('.', '')}@${host}` : normal;
}

/** The hashes of a lead's phone and e-mail as a platform takes them. */
export interface HashedContact {
  phone: string | null;
  email: string | null;
}

export function hashedFor(platform: 'google' | 'microsoft' | 'meta', phone: string | null | undefined, email: string | null | undefined): HashedContact {
  const number = e164(phone);
  const address = platform === 'google' ? googleEmail(email) : normalEmail(email);
  return { phone: number ? sha256(platform === 'meta' ? number.slice(1) : number) : null, email: address ? sha256(address) : null };
}
