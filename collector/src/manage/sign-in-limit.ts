// Sign-in attempts are counted per client ip and per username, so that neither one address nor a
// spread of addresses can guess a password. Counts live in each process (as the browser doors').
import { RateLimiterMemory, secondsOverLimit } from '../http/rate-limits.ts';
import { ManageFailure } from '../http/manage-envelope.ts';

export interface SignInLimits {
  /** Attempts from one ip per quarter of an hour. */
  perIp: number;
  /** Attempts at one username per quarter of an hour. */
  perUsername: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perIp: 30, perUsername: 10 };

export class SignInLimit {
  private readonly byIp: RateLimiterMemory;
  private readonly byUsername: RateLimiterMemory;

  constructor(limits: SignInLimits) {
    this.byIp = new RateLimiterMemory({ keyPrefix: 'sign-in-ip', points: limits.perIp, duration: 900 });
    this.byUsername = new RateLimiterMemory({ keyPrefix: 'sign-in-user', points: limits.perUsername, duration: 900 });
  }

  /** Counts one attempt; over either limit, HTTP 429 with Retry-After. */
  async attempt(ip: string, username: string): Promise<void> {
    const seconds = (await secondsOverLimit(this.byIp, ip)) ?? (await secondsOverLimit(this.byUsername, username));
    if (seconds !== null) throw new ManageFailure(429, `Too many sign-in attempts: retry in ${seconds} s`, { 'Retry-After': String(seconds) });
  }
}
