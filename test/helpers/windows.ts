// The limits count requests in fixed windows aligned on the clock (collector/src/http/rate-limits.ts):
// a test that counts a limit's requests must make them all in one window, or the window's turn
// lets more through than the limit (a test of 50 requests taking 5 s on a busy machine straddles
// a minute's turn one time in twelve). It waits, when the window has too little left, for the next.
import { until } from './until.ts';

/** Resolves once the current window of `seconds` has at least `needMs` left. */
export async function inOneWindow(seconds: number, needMs = 10_000): Promise<void> {
  const ms = seconds * 1000;
  await until(() => ms - (Date.now() % ms) >= needMs, `a ${seconds} s window with ${needMs} ms left`, { timeoutMs: needMs + 5000, everyMs: 100 });
}
