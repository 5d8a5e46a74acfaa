// Every outgoing fetch has a total deadline, not only an idle one: a source that sends one byte every
// few seconds is never idle, and would otherwise hold a delivery slot for ever. What the deadline is
// comes from the collector (the kind of message, the size announced), never from the other side.
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream';

/** Thrown (as the request's error) when a fetch ran past its deadline or its minimum rate. */
export class DeadlinePassed extends Error {}

/** Thrown (as the request's error) when the worker stopped: the attempt is abandoned, not counted, and
 * retried after the restart. */
export class AttemptAbandoned extends Error {
  constructor() {
    super('abandoned at shutdown: retried after the restart');
  }
}

/** Destroys `target` with a DeadlinePassed once `ms` have passed, or an AttemptAbandoned when `signal`
 * aborts first; answers the function that disarms both once the work is done. */
export function armDeadline(target: { destroy(err: Error): unknown }, ms: number, signal: AbortSignal | undefined, what: string): () => void {
  const timer = setTimeout(() => target.destroy(new DeadlinePassed(`${what} not done within ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`}`)), ms);
  const abort = () => target.destroy(new AttemptAbandoned());
  signal?.addEventListener('abort', abort, { once: true });
  if (signal?.aborted) abort();
  return () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  };
}

/** A download that must come at `minBytesPerSecond` on average once `graceMs` have passed, and end
 * within `maxMs` whatever its pace: at most graceMs + size ÷ rate, capped. */
export interface Pace {
  minBytesPerSecond: number;
  graceMs: number;
  maxMs: number;
}

/**
 * `body` as a stream that counts its bytes; `body` is destroyed (and the stream fails with a
 * DeadlinePassed) as soon as less has come than the pace asks, or when `signal` aborts. Checked
 * every half second, so a source that stalls is found out within a second of falling behind.
 */
export function paced(body: Readable, pace: Pace, signal: AbortSignal | undefined, what: string): Readable {
  const started = Date.now();
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(null, chunk);
    },
  });
  const disarm = armDeadline(body, pace.maxMs, signal, what);
  const check = setInterval(() => {
    const elapsed = Date.now() - started;
    const owed = ((elapsed - pace.graceMs) / 1000) * pace.minBytesPerSecond;
    if (received < owed) body.destroy(new DeadlinePassed(`${what} came slower than ${Math.round(pace.minBytesPerSecond / 1024)} KB/s (${received} bytes in ${Math.round(elapsed / 1000)} s)`));
  }, 500);
  check.unref();
  pipeline(body, counted, () => {
    clearInterval(check);
    disarm();
  });
  return counted;
}
