// Requests to a CRM started at a steady pace: each waits its turn, at least `gapMs` after the one
// before, so that one connection stays under the CRM's documented rate however many jobs send at once.
export type Turn = () => Promise<void>;

export function paced(gapMs: number): Turn {
  let next = 0;
  return async () => {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + gapMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
}
