// Google's later word on the leads it took (issue 56): the Data Manager API answers a request once
// it has checked it and processes its events after, so a while after each request (`status`
// messages of the outbox) its status is asked (requestStatus:retrieve): done, its leads are
// `accepted`; failed, `rejected` with Google's reasons; still processing, asked again later, each
// wait twice the last, at most MAX_ASKS times (then they stay `sent`). A request done in part says
// so on its leads, which stay `sent`: Google does not say which of them it could not take.
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { SendResult } from '../webhooks/send.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { batchMessage } from './ads-queue.ts';
import type { AdsConnections } from './connections.ts';
import type { ConversionMoves } from './conversion-moves.ts';
import type { AdsCollections, AdsConversionDoc } from './documents.ts';
import type { PlatformClients } from './platform-clients.ts';

/** How long after a request Google is first asked, by default. */
export const STATUS_AFTER_MS = 60_000;
const MAX_ASKS = 8;
const SETTLED: SendResult = { delivered: true, httpStatus: null, error: null, permanent: false };

export class GoogleRequestStatus {
  constructor(
    private readonly c: AdsCollections & DomainCollections,
    private readonly connections: AdsConnections,
    private readonly clients: PlatformClients,
    private readonly outbox: Outbox,
    private readonly moves: ConversionMoves,
    private readonly afterMs = STATUS_AFTER_MS,
  ) {}

  /** Google took these leads in the request `requestId`: asked about it later. */
  async watch(domain: Pick<DomainDoc, '_id' | 'accountId'>, requestId: string, docs: AdsConversionDoc[], now = new Date()): Promise<void> {
    await this.c.adsConversions.updateMany({ _id: { $in: docs.map((d) => d._id) }, state: 'sent' }, { $set: { requestId } });
    await this.ask(domain, requestId, 0, now);
  }

  /** A `status` message: Google asked, its leads moved by its answer. */
  async check({ domainId, requestId, attempt = 0 }: { domainId: string; requestId: string; attempt?: number }): Promise<SendResult> {
    const docs = await this.c.adsConversions.find({ requestId, state: 'sent' }).toArray();
    const domain = docs.length ? await this.c.domains.findOne({ _id: domainId }) : null;
    const connection = domain ? await this.connections.opened(domainId, 'google') : null;
    if (!domain || !connection) return SETTLED;
    const answer = await this.clients.googleRequestStatus(connection.doc.settings, connection.secret, requestId);
    if ('ok' in answer) {
      // No answer, 429, 5xx: the outbox asks again; any other refusal: they stay sent.
      return !answer.ok && answer.retry ? { delivered: false, httpStatus: answer.status, error: answer.message, permanent: false } : SETTLED;
    }
    const errors = answer.errors.join(', ') || 'no reason given';
    if (answer.status === 'SUCCESS') await this.moves.move(domain, docs, 'sent', 'accepted');
    else if (answer.status === 'FAILED' || (answer.status === 'PARTIAL_SUCCESS' && docs.length === 1)) await this.moves.move(domain, docs, 'sent', 'rejected', `Google could not process it: ${errors}`);
    else if (answer.status === 'PARTIAL_SUCCESS') await this.moves.move(domain, docs, 'sent', 'sent', `Google took only part of its request: ${errors}`);
    else if (attempt + 1 < MAX_ASKS) {
      await this.ask(domain, requestId, attempt + 1);
      return SETTLED;
    }
    await this.c.adsConversions.updateMany({ requestId }, { $unset: { requestId: '' } });
    return SETTLED;
  }

  private async ask(domain: Pick<DomainDoc, '_id' | 'accountId'>, requestId: string, attempt: number, now = new Date()): Promise<void> {
    await this.outbox.enqueue(batchMessage(domain, 'google', `${requestId}_${attempt}`, 'status', { requestId, attempt }), now, new Date(now.getTime() + this.afterMs * 2 ** attempt));
  }
}
