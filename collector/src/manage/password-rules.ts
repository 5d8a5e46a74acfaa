// What a chosen password must be: at least 12 characters, at most 200, and not one of the common
// passwords people and tools try first. The list (common-passwords.txt) is the entries of 12
// characters or more of SecLists' "10 million password list, top 1M" (Daniel Miessler and Jason
// Haddix, OWASP SecLists; CC BY-SA 3.0), lower-cased and deduplicated: 43,940 passwords. Shorter
// entries need no list: the length refuses them. Compared without case.
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
  return common.has(password.toLowerCase());
}

/** A password a person chooses: sign-up, an invitation, a reset, a change. */
export const chosenPassword = z
  .string()
  .min(MIN_PASSWORD, `must be at least ${MIN_PASSWORD} characters`)
  .max(MAX_PASSWORD, `must be at most ${MAX_PASSWORD} characters`)
  .refine((p) => !isCommonPassword(p), 'is one of the most common passwords: choose another');
