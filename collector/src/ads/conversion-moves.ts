// A lead's conversion moved from one state to another, the same way wherever it happens (a request
// answered, Google's later word on it): the documents still in the state they were taken in, the
// marks on their calls and forms (lead-marks.ts), and the metric ringtrail_ads_conversions_total.
import type { DomainDoc } from '../domains/documents.ts';
import type { AdsCollections, AdsConversionDoc, AdsPlatform, ConversionState } from './documents.ts';
import type { MarkLeads } from './lead-marks.ts';

export type Counted = (platform: AdsPlatform, result: ConversionState) => void;

export class ConversionMoves {
  constructor(
    private readonly c: AdsCollections,
    private readonly marks: MarkLeads,
    private readonly counted: Counted = () => {},
  ) {}

  /** `reason`: why (kept, at most 500 characters); none takes an earlier one away. */
  async move(domain: Pick<DomainDoc, '_id' | 'timeZone'>, docs: AdsConversionDoc[], from: ConversionState, to: ConversionState, reason?: string, now = new Date()): Promise<void> {
    if (!docs.length) return;
    const why = reason?.slice(0, 500);
    const update = why ? { $set: { state: to, at: now, reason: why } } : { $set: { state: to, at: now }, $unset: { reason: '' as const } };
    await this.c.adsConversions.updateMany({ _id: { $in: docs.map((d) => d._id) }, state: from }, update);
    await this.marks(domain, docs, to, why, now);
    for (const doc of docs) this.counted(doc.platform, to);
  }
}
