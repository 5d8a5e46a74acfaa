// Counting requests against a limit (rate-limiter-flexible, fixed windows, in each process).
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export { RateLimiterMemory };

/** Counts one request for `key`: null while under the limit, else the seconds to wait. */
export async function secondsOverLimit(limiter: RateLimiterMemory, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    return Math.ceil(err.msBeforeNext / 1000);
  }
}
