// A person's verdict on a call (lead, not a lead, spam), which wins over the domain's lead rule until
// it is undone. Spam also blocks the caller; undoing spam lets the caller through again.
import { BlockedCallers } from './blocked-callers.ts';
import type { CallWrites } from './call-writes.ts';
import type { CallDoc, CallVerdict, TelephonyCollections } from './documents.ts';
import { leadOf, leadRuleOf } from './leads.ts';
import type { DomainCollections } from '../domains/documents.ts';

/** Verdicts given at once on one call: each retry follows a change another one made. */
const MAX_WRITE_ATTEMPTS = 20;

export class CallVerdicts {
  private readonly writes: CallWrites;
  private readonly blocked: BlockedCallers;

  constructor(
    private readonly c: TelephonyCollections & DomainCollections,
    writes: CallWrites,
  ) {
    this.writes = writes;
    this.blocked = new BlockedCallers(c);
  }

  /** Gives (or, with null, undoes) the verdict; answers the call as stored, or null for no such call of the domain. */
  async set(domainId: string, callId: number, value: CallVerdict['value'] | null, by: string, now = new Date()): Promise<CallDoc | null> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const call = await this.c.calls.findOne({ _id: callId, domainId });
      if (!call) return null;
      const verdict = value === null ? null : { value, by, at: now };
      // A person's verdict (or its undo) is theirs: no rule changes it after (rules/).
      const set = { verdict, lead: leadOf({ ...call, verdict }, await leadRuleOf(this.c, domainId)), byHand: { ...call.byHand, verdict: true } };
      if (!(await this.writes.update(call, set))) continue;
      if (call.caller && value === 'spam') await this.blocked.add(domainId, call.caller, by, now);
      if (call.caller && call.verdict?.value === 'spam' && value !== 'spam') await this.blocked.remove(domainId, call.caller);
      return { ...call, ...set, rev: call.rev + 1 };
    }
    throw new Error(`call ${callId}: too many simultaneous verdicts`);
  }
}
