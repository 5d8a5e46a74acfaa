// Leads (ours): a call is a lead by its domain's rule once its outcome is known, unless a person gave
// it a verdict, which wins (lead, not a lead, spam) until it is undone.
import { z } from 'zod';
import type { Collections } from '../db/collections.ts';
import type { CallDoc, CallVerdict } from './documents.ts';

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

export const VERDICTS = ['lead', 'not-lead', 'spam'] as const;

type Judged = Pick<CallDoc, 'status' | 'duration' | 'firstCall'> & { verdict?: CallVerdict | null };

/** true or false once the call's outcome is known (or a person said); null while it goes on. */
export function leadOf(call: Judged, rule: LeadRule = DEFAULT_LEAD_RULE): boolean | null {
  if (call.verdict) return call.verdict.value === 'lead';
  if (call.status === null) return null;
  if (call.status === 'CALLER_PHONE_BLACKLISTED') return false;
  if (rule.answeredOnly && call.status !== 'SUCCESS') return false;
  if (rule.firstTimeOnly && call.firstCall !== true) return false;
  return call.duration >= rule.minDuration;
}

/** The domain's rule as it stands now: a later report of a call applies the rule of that moment. */
export async function leadRuleOf(c: Collections, domainId: string): Promise<LeadRule> {
  return (await c.domains.findOne({ _id: domainId }, { projection: { leadRule: 1 } }))?.leadRule ?? DEFAULT_LEAD_RULE;
}
