// Rate limits of the browser doors, so a script cannot drain the pool: per client ip, and per
// visit (the tracker's visit cookie). rate-limiter-flexible counts in fixed windows of a minute.
// The counts live in each collector process: with N processes a client gets up to N times the
// limit, which still bounds it; the pool's own guarantees do not depend on it.
import { RateLimiterMemory, secondsOverLimit } from '../http/rate-limits.ts';
import { TrackingFailure } from '../tracking/failure.ts';

export interface BrowserLimits {
  /** Requests a minute from one ip, all browser doors together. */
  perIp: number;
  /** Requests a minute for one visit. */
  perVisit: number;
}

export const DEFAULT_BROWSER_LIMITS: BrowserLimits = { perIp: 120, perVisit: 30 };

export class BrowserRateLimit {
  private readonly byIp: RateLimiterMemory;
  private readonly byVisit: RateLimiterMemory;

  constructor(limits: BrowserLimits) {
    this.byIp = new RateLimiterMemory({ keyPrefix: 'ip', points: limits.perIp, duration: 60 });
    this.byVisit = new RateLimiterMemory({ keyPrefix: 'visit', points: limits.perVisit, duration: 60 });
  }

  ip(ip: string): Promise<void> {
    return consume(this.byIp, ip, 'this address');
  }

  visit(domainId: string, visitId: number): Promise<void> {
    return consume(this.byVisit, `${domainId}|${visitId}`, 'this visit');
  }
}

/** Counts one request; over the limit, a WARNING with HTTP 429 that says when to come back. */
async function consume(limiter: RateLimiterMemory, key: string, who: string): Promise<void> {
  const seconds = await secondsOverLimit(limiter, key);
  if (seconds !== null) throw new TrackingFailure('WARNING', `Too many requests from ${who}: retry in ${seconds} s`, {}, { status: 429, headers: { 'Retry-After': String(seconds) } });
}
