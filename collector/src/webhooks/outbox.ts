// The durable outbox: a message accepted here is in the database before the request that caused it
// answers, and stays there until a worker delivers it or gives up (see delivery-worker.ts).
import { randomUUID } from 'node:crypto';
import { isDuplicateKey } from '../db/writes.ts';
import type { OutboxAbout, OutboxDoc, OutboxMessage, WebhookCollections } from './documents.ts';

/** The streams that are one call's or one form's: their messages are for it (OutboxDoc.about). */
const CALL_STREAM = /^(?:call|transcript|recording|lead):(\d+)$/;
const FORM_STREAM = /^form-lead:(\d+)$/;

/** What a message is for: as it says, or as its stream names it. */
export function aboutOf(message: Pick<OutboxMessage, 'stream' | 'about'>): OutboxAbout | undefined {
  if (message.about) return message.about;
  const call = CALL_STREAM.exec(message.stream);
  if (call) return { callIds: [Number(call[1])] };
  const form = FORM_STREAM.exec(message.stream);
  return form ? { formIds: [Number(form[1])] } : undefined;
}

/** Monotonic within a process, so two messages of one stream enqueued in one millisecond keep their order. */
function enqueueClock(): number {
  return performance.timeOrigin + performance.now();
}

export class Outbox {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly c: WebhookCollections) {}

  /** Stores the message; a fixed `id` still waiting makes a second enqueue a no-op. `notBefore`:
   * its first attempt waits until then (leads gathered into one request). */
  async enqueue(message: OutboxMessage, now = new Date(), notBefore = now): Promise<string> {
    const { id = `msg_${randomUUID()}`, about: _about, ...rest } = message;
    const about = aboutOf(message);
    const doc: OutboxDoc = { _id: id, ...rest, ...(about ? { about } : {}), createdAt: now, enqueuedAt: enqueueClock(), attempts: 0, nextAttemptAt: notBefore, claimedBy: null, claimedUntil: new Date(0) };
    try {
      await this.c.outbox.insertOne(doc);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    for (const listener of this.listeners) listener();
    return id;
  }

  /** Called after each enqueue: this process's worker starts at once instead of at its next poll. */
  onEnqueue(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
