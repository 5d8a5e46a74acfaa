// How many /data-api pages of one domain this process reads and renders at once. A page of 5,000
// rows is tens of milliseconds of JSON on the event loop; fifty of them at once held every other
// request (/healthz included) for over a second. Beyond the limit a request waits its turn, in
// order, so one client's burst is spread out instead of stalling everyone.
/** Pages of one domain read at once by one process, unless DATA_PAGES_AT_ONCE says otherwise. */
export const DATA_PAGES_AT_ONCE = 1;

export class PageGate {
  private readonly byDomain = new Map<string, { active: number; waiting: (() => void)[] }>();

  constructor(private readonly atOnce: number) {}

  async run<T>(domainId: string, read: () => Promise<T>): Promise<T> {
    const gate = this.byDomain.get(domainId) ?? { active: 0, waiting: [] };
    this.byDomain.set(domainId, gate);
    if (gate.active >= this.atOnce) await new Promise<void>((resolve) => gate.waiting.push(resolve));
    else gate.active++;
    try {
      // A turn between pages: what waits behind them (another domain, a probe) gets the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      return await read();
    } finally {
      const next = gate.waiting.shift();
      if (next) next(); // the turn passes on: `active` stays
      else if (--gate.active === 0) this.byDomain.delete(domainId);
    }
  }
}
