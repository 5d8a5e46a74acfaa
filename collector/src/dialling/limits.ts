// How many calls and texts the account places in an hour (issue 79): per member and per account,
// counted in the database (http/rate-limits.ts), so that every collector process counts against one
// limit and 25 calls fired at once are counted one by one. A text RingTrail sends by itself (the
// answer to HELP) counts against the account's limit.
import type { RateLimitCollections } from '../http/documents.ts';
import { WindowLimiter } from '../http/rate-limits.ts';
import type { AccountDialling } from '../team/documents.ts';
import { DialLimitReached } from './refused.ts';

export interface DialLimits {
  callsPerMember: number;
  callsPerAccount: number;
  textsPerMember: number;
  textsPerAccount: number;
}

export const DEFAULT_DIAL_LIMITS: DialLimits = { callsPerMember: 20, callsPerAccount: 100, textsPerMember: 100, textsPerAccount: 500 };

const HOUR = 3600;

export const limitsOf = (dialling: AccountDialling | undefined): DialLimits => ({ ...DEFAULT_DIAL_LIMITS, ...dialling?.limits });

export class DialCounts {
  constructor(private readonly c: RateLimitCollections) {}

  /** Counts one call placed by `member`; over a limit, DialLimitReached in words. */
  call(accountId: string, member: string, limits: DialLimits): Promise<void> {
    return this.count('call', accountId, member, limits.callsPerMember, limits.callsPerAccount, 'calls');
  }

  /** Counts one text sent by `member` (null: by RingTrail itself). */
  text(accountId: string, member: string | null, limits: DialLimits): Promise<void> {
    return this.count('text', accountId, member, limits.textsPerMember, limits.textsPerAccount, 'texts');
  }

  private async count(kind: string, accountId: string, member: string | null, perMember: number, perAccount: number, what: string): Promise<void> {
    const now = Date.now();
    const byMember = new WindowLimiter(this.c.rateLimits, `dial-${kind}-member`, perMember, HOUR);
    if (member !== null) {
      const wait = await byMember.secondsOver(`${accountId}|${member}`, now);
      if (wait !== null) throw new DialLimitReached(`You have placed ${perMember} ${what} this hour, your limit: try again in ${minutes(wait)}, or ask an owner to raise it (Account, Dialling)`, wait);
    }
    const wait = await new WindowLimiter(this.c.rateLimits, `dial-${kind}-account`, perAccount, HOUR).secondsOver(accountId, now);
    if (wait === null) return;
    // Not placed: it does not count against the member.
    if (member !== null) await byMember.giveBack(`${accountId}|${member}`, now);
    throw new DialLimitReached(`The account has placed ${perAccount} ${what} this hour, its limit: try again in ${minutes(wait)}, or ask an owner to raise it (Account, Dialling)`, wait);
  }
}

const minutes = (seconds: number) => (seconds < 60 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`);
