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

/** A promise that rejects with DatabaseStalled when told to; never unhandled. */
function stallNotice(): { promise: Promise<never>; reject: () => void } {
  let reject!: () => void;
  const promise = new Promise<never>((_, fail) => (reject = () => fail(new DatabaseStalled())));
  promise.catch(() => {});
  return { promise, reject };
}

export class DatabaseStallWatch {
  private stalledSince: number | null = null;
  private pinger: NodeJS.Timeout | null = null;
  private notice = stallNotice();

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

  /** Rejects with DatabaseStalled when the database next stops answering. */
  get nextStall(): Promise<never> {
    return this.notice.promise;
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
    this.notice.reject();
    this.pinger = setInterval(() => void this.client.db('admin').command({ ping: 1 }).catch(() => {}), PING_EVERY_MS);
    this.pinger.unref();
  }

  private recover(): void {
    if (this.stalledSince === null) return;
    this.log.warn({ stalledMs: Date.now() - this.stalledSince }, 'the database answers again');
    this.stalledSince = null;
    this.notice = stallNotice();
    this.stopPinging();
  }
}
