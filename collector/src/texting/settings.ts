// A domain's texting settings (issue 68): the answer to HELP (the carriers require one: who is
// texting, and how to stop) and the saved replies, each with `{firstName}` filled where known.
import { z } from 'zod';
import type { DomainDoc, TextingSettings } from '../domains/documents.ts';
import { MAX_TEXT_LENGTH } from './segments.ts';

export const textingSettingsBody = z
  .object({
    helpText: z.string().trim().min(1).max(320, 'must be at most 320 characters (two segments)').nullable().default(null).describe('Texted to whoever texts HELP; null: the default, naming the domain and how to stop'),
    savedReplies: z
      .array(z.object({ name: z.string().trim().min(1).max(60), body: z.string().trim().min(1).max(MAX_TEXT_LENGTH) }).strict())
      .max(50)
      .default([])
      .describe('Replies to pick; {firstName} becomes the first name where known'),
  })
  .strict();

export const textingOf = (domain: Pick<DomainDoc, 'texting'>): TextingSettings => domain.texting ?? { helpText: null, savedReplies: [] };

/** The answer to HELP. */
export function helpTextOf(domain: Pick<DomainDoc, 'name' | 'texting'>): string {
  return textingOf(domain).helpText ?? `${domain.name}: this number reaches the team of ${domain.name}. Reply STOP to stop texts, START to get them again. Msg & data rates may apply.`;
}
