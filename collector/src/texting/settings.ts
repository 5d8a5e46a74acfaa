// A domain's texting settings (issue 68): the answer to HELP (the carriers require one: who is
// texting, and how to stop) and the saved replies, each with `{firstName}` filled where known; the
// text back of a missed caller (issue 80, texting/text-back.ts), off unless the domain turns it on.
import { z } from 'zod';
import type { DomainDoc, TextBackSettings, TextingSettings } from '../domains/documents.ts';
import { openingHours } from '../flows/steps.ts';
import { MAX_TEXT_LENGTH } from './segments.ts';

/** What a missed caller is texted unless the domain writes its own. */
export const DEFAULT_TEXT_BACK = 'Sorry we missed your call! How can we help? Reply to this text and we will get back to you.';

const TEXT_BACK_OFF: TextBackSettings = { enabled: false, message: DEFAULT_TEXT_BACK, hours: null };

const textBack = z
  .object({
    enabled: z.boolean().default(false).describe('Text a caller nobody answered (missed, or abandoned in a call flow), from the number they called'),
    message: z.string().trim().min(1).max(320, 'must be at most 320 characters (two segments)').default(DEFAULT_TEXT_BACK).describe('The text'),
    hours: z.object(openingHours).strict().nullable().default(null).describe("When it may be sent, in the domain's time zone (a call missed outside them gets none); null: any hour"),
  })
  .strict();

export const textingSettingsBody = z
  .object({
    businessName: z.string().trim().min(1, 'must not be empty').max(80, 'must be at most 80 characters').nullable().default(null).describe("Ours (issue 81): the business's name, as the answer to HELP says it; null: the account's name"),
    helpText: z.string().trim().min(1).max(320, 'must be at most 320 characters (two segments)').nullable().default(null).describe('Texted to whoever texts HELP; null: the default, naming the business and how to stop'),
    savedReplies: z
      .array(z.object({ name: z.string().trim().min(1).max(60), body: z.string().trim().min(1).max(MAX_TEXT_LENGTH) }).strict())
      .max(50)
      .default([])
      .describe('Replies to pick; {firstName} becomes the first name where known'),
    textBack: textBack.default(TEXT_BACK_OFF).describe('Ours (issue 80): text back a missed caller, once a day at most, only to a mobile number that did not opt out'),
  })
  .strict();

export const textingOf = (domain: Pick<DomainDoc, 'texting'>): Required<TextingSettings> => ({ helpText: null, businessName: null, savedReplies: [], ...domain.texting, textBack: domain.texting?.textBack ?? TEXT_BACK_OFF });

/** The domain's text back: off where it never set one. */
export const textBackOf = (domain: Pick<DomainDoc, 'texting'>): TextBackSettings => textingOf(domain).textBack;

/** The answer to HELP: the domain's own, or one naming the business (the carriers require its name
 * and how to stop), the account's name where the domain set none. */
export function helpTextOf(domain: Pick<DomainDoc, 'texting'>, accountName: string): string {
  const texting = textingOf(domain);
  return texting.helpText ?? defaultHelpText(texting.businessName ?? accountName);
}

export const defaultHelpText = (business: string) => `${business}: you are texting the team of ${business}. Reply STOP to stop texts, START to get them again. Msg & data rates may apply.`;
