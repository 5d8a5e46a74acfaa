// The numbers of one pool with their hints, read at most every LISTING_TTL_MS per process.
//
// Listing a pool scans it (FerretDB v1 pushes no filter down), which under load costs more than
// everything else a view does. Concurrent requests share one listing; a stale one is harmless
// because a claim checks the slot's latest lease before inserting the next. The pool only reads
// as exhausted after a fresh listing.
import type { Collections, TrackingNumberDoc } from '../db/collections.ts';

const LISTING_TTL_MS = 250;

interface Listing {
  readAt: number;
  numbers: Promise<TrackingNumberDoc[]>;
}

export class PoolListing {
  private readonly listings = new Map<string, Listing>();

  constructor(private readonly c: Collections) {}

  numbers(domainId: string, type: number, { fresh = false } = {}): Promise<TrackingNumberDoc[]> {
    const key = `${domainId}|${type}`;
    const cached = this.listings.get(key);
    if (!fresh && cached && Date.now() - cached.readAt < LISTING_TTL_MS) return cached.numbers;
    const numbers = this.c.trackingNumbers.find({ domainId, usage: 'online', type }, { batchSize: 10_000 }).toArray();
    this.listings.set(key, { readAt: Date.now(), numbers });
    numbers.catch(() => this.listings.delete(key));
    return numbers;
  }
}
