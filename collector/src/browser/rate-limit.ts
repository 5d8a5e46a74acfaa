// Rate limits of the browser doors, so a script cannot drain the pool: per client ip, and per
// visit (the tracker's visit cookie), in fixed windows of a minute counted in the database, so
// that every collector process counts against the same limit.
import { WindowLimiter } from '../http/rate-limits.ts';
import { TrackingFailure } from '../http/tracking-failure.ts';
import type { RateLimitCollections } from '../http/documents.ts';

export interface BrowserLimits {
  /** Requests a minute from one ip, all browser doors together. */
  perIp: number;
  /** Requests a minute for one visit. */
  perVisit: number;
}

export const DEFAULT_BROWSER_LIMITS: BrowserLimits = { perIp: 120, perVisit: 30 };

export class BrowserRateLimit {
  private readonly byIp: WindowLimiter;
  private readonly byVisit: WindowLimiter;

  constructor(c: RateLimitCollections, limits: BrowserLimits) {
    this.byIp = new WindowLimiter(c.rateLimits, 'ip', limits.perIp, 60);
    this.byVisit = new WindowLimiter(c.rateLimits, 'visit', limits.perVisit, 60);
  }

  ip(ip: string): Promise<void> {
    return consume(this.byIp, ip, 'this address');
  }

  visit(domainId: string, visitId: number): Promise<void> {
    return consume(this.byVisit, `${domainId}|${visitId}`, 'this visit');
  }
}

/** Counts one request; over the limit, a WARNING with HTTP 429 that says when to come back. */
async function consume(limiter: WindowLimiter, key: string, who: string): Promise<void> {
  const seconds = await limiter.secondsOver(key);
  if (seconds !== null) throw new TrackingFailure('WARNING', `Too many requests from ${who}: retry in ${seconds} s`, {}, { status: 429, headers: { 'Retry-After': String(seconds) } });
}
