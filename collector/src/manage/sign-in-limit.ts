// Sign-in attempts are counted per client ip and per username, so that neither one address nor a
// spread of addresses can guess a password. Counted in the database, as the browser doors' limits.
import type { Collections } from '../db/collections.ts';
import { WindowLimiter } from '../http/rate-limits.ts';
import { ManageFailure } from '../http/manage-envelope.ts';

export interface SignInLimits {
  /** Attempts from one ip per quarter of an hour. */
  perIp: number;
  /** Attempts at one username per quarter of an hour. */
  perUsername: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perIp: 30, perUsername: 10 };

export class SignInLimit {
  private readonly byIp: WindowLimiter;
  private readonly byUsername: WindowLimiter;

  constructor(c: Collections, limits: SignInLimits) {
    this.byIp = new WindowLimiter(c.rateLimits, 'sign-in-ip', limits.perIp, 900);
    this.byUsername = new WindowLimiter(c.rateLimits, 'sign-in-user', limits.perUsername, 900);
  }

  /** Counts one attempt; over either limit, HTTP 429 with Retry-After. */
  async attempt(ip: string, username: string): Promise<void> {
    const seconds = (await this.byIp.secondsOver(ip)) ?? (await this.byUsername.secondsOver(username));
    if (seconds !== null) throw new ManageFailure(429, `Too many sign-in attempts: retry in ${seconds} s`, { 'Retry-After': String(seconds) });
  }
}
