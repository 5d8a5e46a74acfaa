// A domain's rule for which calls are leads (ours), as its settings store it; telephony/leads.ts
// judges calls by it.
import { z } from 'zod';

export const leadRule = z
  .object({
    /** Seconds of conversation a lead lasts at least. */
    minDuration: z.number().int().min(0).max(86_400).default(30),
    /** Only an answered call (SUCCESS) is a lead. */
    answeredOnly: z.boolean().default(true),
    /** Only a caller's first call to the domain is a lead. */
    firstTimeOnly: z.boolean().default(false),
  })
  .strict();
export type LeadRule = z.infer<typeof leadRule>;

export const DEFAULT_LEAD_RULE: LeadRule = { minDuration: 30, answeredOnly: true, firstTimeOnly: false };
