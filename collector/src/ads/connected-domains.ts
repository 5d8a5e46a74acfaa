// Which domains are connected to an ad platform, as the browser door asks at each view (their pages
// load tracker-ads.js, which reads the visitor's consent): one read of the connections' domains every
// REFRESH_MS, not one per view. A connection made or removed in this process counts at once; in
// another process, within REFRESH_MS.
import type { AdsCollections } from './documents.ts';

const REFRESH_MS = 30_000;

export class ConnectedDomains {
  private known: Promise<Set<string>> | null = null;
  private readAt = 0;

  constructor(private readonly c: AdsCollections) {}

  async has(domainId: string, now = Date.now()): Promise<boolean> {
    if (!this.known || now - this.readAt > REFRESH_MS) {
      this.readAt = now;
      const read = this.c.adsConnections.distinct('domainId').then((ids) => new Set(ids));
      // A failed read is read again at the next view, not kept.
      read.catch(() => this.known === read && (this.known = null));
      this.known = read;
    }
    // Not known (the database did not answer): no script, rather than no view.
    return (await this.known.catch(() => new Set<string>())).has(domainId);
  }

  /** A connection made or removed here: read again at the next view. */
  changed(): void {
    this.known = null;
  }
}
