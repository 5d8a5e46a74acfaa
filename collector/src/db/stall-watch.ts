// Whether the database stopped answering. Every operation of the collector gives up after its
// timeout (connect.ts), but a request makes several, and the driver retries each once: under a
// stalled database one request could take several timeouts (11.6 s for a view, measured). Once an
// operation has timed out, the watch says so: the requests under way fail then, and new ones at
// once (http/envelope.ts), until the database answers again: a ping every half second finds out,
// as does any other command that succeeds.
import { MongoNetworkTimeoutError, MongoServerSelectionError, type CommandFailedEvent, type MongoClient } from 'mongodb';
import type { Logger } from '../logger.ts';

const PING_EVERY_MS = 500;

/** A request refused, or given up, because the database does not answer. */
export class DatabaseStalled extends Error {
  constructor() {
    super('the database does not answer');
  }
}

export class DatabaseStallWatch {
  private stalledSince: number | null = null;
  private pinger: NodeJS.Timeout | null = null;
  /** How to fail each request under way (guard): a set each request leaves when it settles. A
   * promise shared by all requests, raced against each, kept a reaction per request until the
   * next stall: a leak of some 600 bytes a request for as long as the database answered. */
  private readonly underWay = new Set<() => void>();

  private readonly onFailed = (event: CommandFailedEvent) => {
    if (event.failure instanceof MongoNetworkTimeoutError || event.failure instanceof MongoServerSelectionError) this.stall();
  };
  private readonly onSucceeded = () => this.recover();

  constructor(
    private readonly client: MongoClient,
    private readonly log: Logger,
  ) {
    client.on('commandFailed', this.onFailed);
    client.on('commandSucceeded', this.onSucceeded);
  }

  get stalled(): boolean {
    return this.stalledSince !== null;
  }

  /** `work`'s outcome, or DatabaseStalled as soon as the database is found not to answer. */
  guard<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const fail = () => reject(new DatabaseStalled());
      this.underWay.add(fail);
      work.then(resolve, reject).finally(() => this.underWay.delete(fail));
    });
  }

  /** Requests under way that a stall would fail now. */
  get guarded(): number {
    return this.underWay.size;
  }

  stop(): void {
    this.stopPinging();
    this.client.off('commandFailed', this.onFailed);
    this.client.off('commandSucceeded', this.onSucceeded);
  }

  private stopPinging(): void {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
  }

  private stall(): void {
    if (this.stalledSince !== null) return;
    this.stalledSince = Date.now();
    this.log.warn('the database does not answer: failing requests at once until it does');
    for (const fail of this.underWay) fail();
    this.underWay.clear();
    this.pinger = setInterval(() => void this.client.db('admin').command({ ping: 1 }).catch(() => {}), PING_EVERY_MS);
    this.pinger.unref();
  }

  private recover(): void {
    if (this.stalledSince === null) return;
    this.log.warn({ stalledMs: Date.now() - this.stalledSince }, 'the database answers again');
    this.stalledSince = null;
    this.stopPinging();
  }
}
