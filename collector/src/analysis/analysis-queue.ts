// A call's analysis queued (issue 66) once its transcript is ready, where the domain asks for it and
// a model is configured (ANALYZE_URL): through the durable outbox, so a slow or dead model never
// slows a request and a restart loses nothing.
import type { DomainCollections } from '../domains/documents.ts';
import type { CallDoc } from '../telephony/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import { Outbox } from '../webhooks/outbox.ts';
import { analysisMessage } from './analyzer.ts';

export class AnalysisQueue {
  private readonly outbox: Outbox;

  constructor(
    private readonly c: DomainCollections & WebhookCollections,
    private readonly modelConfigured: boolean,
  ) {
    this.outbox = new Outbox(c);
  }

  async changed(before: CallDoc | null, after: CallDoc): Promise<void> {
    if (!this.modelConfigured || after.transcript?.status !== 'ready' || before?.transcript?.status === 'ready' || after.analysis?.status === 'ready') return;
    const domain = await this.c.domains.findOne({ _id: after.domainId }, { projection: { accountId: 1, analysis: 1 } });
    if (domain?.analysis?.enabled) await this.outbox.enqueue(analysisMessage(domain.accountId, after._id));
  }
}
