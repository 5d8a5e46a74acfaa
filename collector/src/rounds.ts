// A round of work run every so often in the background, one at a time: a slow round delays the
// next, never overlaps it; a failed one is logged and the next runs; stopping waits for the round
// under way. The alert mailer, the summaries, the warnings, the recordings' retention and the carriers' number check each run theirs.
import type { Logger } from './logger.ts';

export class Rounds {
  private timer: NodeJS.Timeout | undefined;
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly round: () => Promise<void>,
    /** What the rounds do, as a failure is logged: `mailing alerts failed`. */
    private readonly what: string,
    private readonly log?: Logger,
  ) {}

  start(everyMs: number): void {
    this.timer = setInterval(() => {
      this.last = this.last.then(this.round).catch((err) => this.log?.error({ err }, `${this.what} failed`));
    }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.last;
  }
}
