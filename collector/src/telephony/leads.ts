// Leads (ours): a call is a lead by its domain's rule once its outcome is known, unless a person gave
// it a verdict, which wins (lead, not a lead, spam) until it is undone.
import type { CallDoc, CallVerdict } from './documents.ts';
import { callOutcome } from './outcome.ts';
import type { DomainCollections } from '../domains/documents.ts';
import { DEFAULT_LEAD_RULE, type LeadRule } from '../domains/lead-rule.ts';

export const VERDICTS = ['lead', 'not-lead', 'spam'] as const;

type Judged = Pick<CallDoc, 'status' | 'outcome' | 'duration' | 'firstCall'> & { verdict?: CallVerdict | null };

/** true or false once the call's outcome is known (or a person said); null while it goes on. */
export function leadOf(call: Judged, rule: LeadRule = DEFAULT_LEAD_RULE): boolean | null {
  if (call.verdict) return call.verdict.value === 'lead';
  // What happened to the call, not what its route imposed: an answered call to a number nobody held is a lead too.
  const outcome = callOutcome(call);
  if (outcome === null) return null;
  if (outcome === 'CALLER_PHONE_BLACKLISTED') return false;
  if (rule.answeredOnly && outcome !== 'SUCCESS') return false;
  if (rule.firstTimeOnly && call.firstCall !== true) return false;
  return call.duration >= rule.minDuration;
}

/** The domain's rule as it stands now: a later report of a call applies the rule of that moment. */
export async function leadRuleOf(c: DomainCollections, domainId: string): Promise<LeadRule> {
  return (await c.domains.findOne({ _id: domainId }, { projection: { leadRule: 1 } }))?.leadRule ?? DEFAULT_LEAD_RULE;
}
