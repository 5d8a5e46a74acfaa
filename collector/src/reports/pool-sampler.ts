// Samples how many numbers each online pool has held, once a minute, into the hour's peak. A hold
// ends by itself when its time runs out, so no write marks the moment the count goes down; a
// sample does. Several collectors may sample at once: the peak is a `$max`, the same either way.
import type { Logger } from '../logger.ts';
import { heldNow } from './pools.ts';
import { TrafficDays } from './traffic-days.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { ReportCollections } from './documents.ts';

export const POOL_SAMPLE_MS = 60_000;

export class PoolSampler {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly c: ReportCollections & DomainCollections & TrackingCollections,
    private readonly log: Logger,
  ) {}

  start(intervalMs = POOL_SAMPLE_MS): void {
    this.timer = setInterval(() => void this.sample().catch((err) => this.log.error({ err }, 'sampling the pools failed')), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sample(now = new Date()): Promise<void> {
    const traffic = new TrafficDays(this.c);
    for await (const domain of this.c.domains.find({ 'pools.usage': 'online' })) {
      for (const pool of domain.pools.filter((p) => p.usage === 'online')) {
        await traffic.poolHeld(domain, pool.type, await heldNow(this.c, domain._id, pool.type, now), now);
      }
    }
  }
}
