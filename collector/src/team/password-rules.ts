// What a chosen password must be: at least 12 characters, at most 200, and not one of the common
// passwords people and tools try first. The list (common-passwords.txt) is the entries of 12
// characters or more of SecLists' "10 million password list, top 1M" (Daniel Miessler and Jason
// Haddix, OWASP SecLists; CC BY-SA 3.0), lower-cased and deduplicated: 43,940 passwords. Shorter
// entries need no list: the length refuses them. Compared without case. Characters are counted after
// NFKC normalisation, leaving out invisible ones (controls, format characters such as zero-width
// spaces, marks alone); a password of nothing but spaces and invisible characters is refused. The
// spaces of a passphrase count.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const MIN_PASSWORD = 12;
export const MAX_PASSWORD = 200;

const LIST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt');
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(readFileSync(LIST, 'utf8').split('\n').filter(Boolean));
  return common.has(password.toLowerCase()) || common.has(password.normalize('NFKC').toLowerCase().trim());
}

const INVISIBLE = /[\p{Cc}\p{Cf}\p{M}\u115F\u1160\u3164\uFFA0\u2800]/gu;
const BLANK = /[\p{White_Space}\p{Z}]/gu;

/** The characters of a password that count: NFKC-normalised code points, less the invisible ones. */
export function visibleLength(password: string): number {
  return [...password.normalize('NFKC').replace(INVISIBLE, '')].length;
}

/** Whether a password is nothing but spaces and invisible characters. */
export function isBlank(password: string): boolean {
  return password.normalize('NFKC').replace(INVISIBLE, '').replace(BLANK, '') === '';
}

/** A password a person chooses: sign-up, an invitation, a reset, a change. */
export const chosenPassword = z
  .string()
  .min(MIN_PASSWORD, `must be at least ${MIN_PASSWORD} characters`)
  .max(MAX_PASSWORD, `must be at most ${MAX_PASSWORD} characters`)
  .refine((p) => p.length < MIN_PASSWORD || !isBlank(p), 'must not be only spaces or invisible characters')
  .refine((p) => p.length < MIN_PASSWORD || isBlank(p) || visibleLength(p) >= MIN_PASSWORD, `must be at least ${MIN_PASSWORD} characters, not counting invisible characters`)
  .refine((p) => !isCommonPassword(p), 'is one of the most common passwords: choose another');
