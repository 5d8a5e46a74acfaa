// Group commit's queue: the items that requests add while a batch is being sent wait, and go
// together as the next batch. At low load an item goes at once, alone; under load N requests' items
// cost one operation. Each request's promise settles with its own item's outcome.

/** An item's outcome: its value, or the error that refused it alone. */
export type Outcome<O> = { value: O } | { error: unknown };

/** Items of one batch at most: a burst beyond it goes in the batches that follow. */
const MAX_BATCH = 500;

export class Batches<I, O> {
  private waiting: { item: I; settle: (outcome: Outcome<O>) => void }[] = [];
  private sending = false;

  /** `send` answers each item's outcome in order, or throws when the whole batch failed. */
  constructor(private readonly send: (items: I[]) => Promise<Outcome<O>[]>) {}

  add(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, settle: (outcome) => ('error' in outcome ? reject(outcome.error) : resolve(outcome.value)) });
      if (!this.sending) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.sending = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      const outcomes = await this.send(batch.map((w) => w.item)).catch((error: unknown) => batch.map(() => ({ error })));
      batch.forEach((w, i) => w.settle(outcomes[i]!));
    }
    this.sending = false;
  }
}
