// Failed sign-ins are counted per client ip, and per username from one ip: one address cannot
// guess many passwords, and nobody elsewhere can lock a user out by failing at their username (a
// right password from an address that has not failed is never refused). Each attempt counts as
// failed before its password is checked, and is given back when the password was right: a burst
// of simultaneous guesses cannot slip under the limit. Counted in the database, as the browser
// doors' limits, so every collector process counts against one limit.
import { WindowLimiter } from '../http/rate-limits.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import type { RateLimitCollections } from '../http/documents.ts';

export interface SignInLimits {
  /** Failed sign-ins from one ip per quarter of an hour. */
  perIp: number;
  /** Failed sign-ins at one username from one ip per quarter of an hour. */
  perUsernameAndIp: number;
  /** Sign-ups from one ip per quarter of an hour. */
  signUpsPerIp: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perIp: 30, perUsernameAndIp: 10, signUpsPerIp: 10 };
const WINDOW_SECONDS = 900;
/** Reset links mailed to one address per quarter of an hour. */
const RESETS_PER_USERNAME = 3;

export function tooMany(seconds: number, what: string): ManageFailure {
  return new ManageFailure(429, `Too many ${what}: retry in ${seconds} s`, { 'Retry-After': String(seconds) });
}

export class SignInLimit {
  private readonly byIp: WindowLimiter;
  private readonly byUsernameAndIp: WindowLimiter;
  private readonly signUps: WindowLimiter;
  private readonly resets: WindowLimiter;
  private readonly resetsByIp: WindowLimiter;

  constructor(c: RateLimitCollections, limits: SignInLimits) {
    this.byIp = new WindowLimiter(c.rateLimits, 'sign-in-ip', limits.perIp, WINDOW_SECONDS);
    this.byUsernameAndIp = new WindowLimiter(c.rateLimits, 'sign-in-user-ip', limits.perUsernameAndIp, WINDOW_SECONDS);
    this.signUps = new WindowLimiter(c.rateLimits, 'sign-up-ip', limits.signUpsPerIp, WINDOW_SECONDS);
    this.resets = new WindowLimiter(c.rateLimits, 'reset-user', RESETS_PER_USERNAME, WINDOW_SECONDS);
    this.resetsByIp = new WindowLimiter(c.rateLimits, 'reset-ip', limits.signUpsPerIp, WINDOW_SECONDS);
  }

  /**
   * Runs `check` (the password check: null when wrong) as one sign-in attempt from `ip` at
   * `username`. Over either limit, HTTP 429 with Retry-After, and the password is not checked.
   */
  async attempt<T>(ip: string, username: string, check: () => Promise<T | null>): Promise<T | null> {
    const now = Date.now();
    const pair = `${username}|${ip}`;
    const overIp = await this.byIp.secondsOver(ip, now);
    const overPair = await this.byUsernameAndIp.secondsOver(pair, now);
    const seconds = overIp ?? overPair;
    if (seconds !== null) throw tooMany(seconds, 'sign-in attempts');
    const result = await check();
    if (result !== null) await Promise.all([this.byIp.giveBack(ip, now), this.byUsernameAndIp.giveBack(pair, now)]);
    return result;
  }

  /** Counts one request for a reset link by mail, per address asked for and per `ip`; over either
   * limit, HTTP 429 with Retry-After. */
  async resetRequest(ip: string, username: string): Promise<void> {
    const seconds = (await this.resets.secondsOver(username)) ?? (await this.resetsByIp.secondsOver(ip));
    if (seconds !== null) throw tooMany(seconds, 'requests for a new password');
  }

  /** Counts one sign-up from `ip`; over the limit, HTTP 429 with Retry-After. */
  async signUp(ip: string): Promise<void> {
    const seconds = await this.signUps.secondsOver(ip);
    if (seconds !== null) throw tooMany(seconds, 'sign-ups');
  }
}
