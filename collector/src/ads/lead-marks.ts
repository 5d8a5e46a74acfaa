// Where a lead is with each platform, written on its call or form too (`adsConversions`), through
// their own writes, so the data API's records, the pushes and the back end's pages read it with the
// lead: one mark per platform, the latest.
import type { DomainDoc } from '../domains/documents.ts';
import type { FormWrites } from '../forms/form-writes.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { AdsConversionMark } from '../telephony/documents.ts';
import type { AdsConversionDoc } from './documents.ts';

export type MarkLeads = (domain: Pick<DomainDoc, '_id' | 'timeZone'>, docs: Pick<AdsConversionDoc, 'kind' | 'itemId' | 'platform'>[], state: AdsConversionDoc['state'], reason: string | undefined, at: Date) => Promise<void>;

/** Marks through the call and form writes (given late: the writes' reactions queue the leads); the
 * call writes' own queue has only calls to mark, the form writes' only forms. */
export function leadMarks({ calls, forms }: { calls?: () => CallWrites; forms?: () => FormWrites }): MarkLeads {
  return async (domain, docs, state, reason, at) => {
    for (const doc of docs) {
      const mark: AdsConversionMark = { platform: doc.platform, state, at, ...(reason ? { reason } : {}) };
      const merged = (marks: AdsConversionMark[] | undefined) => ({ adsConversions: [...(marks ?? []).filter((m) => m.platform !== doc.platform), mark] });
      if (doc.kind === 'call') await calls?.().change(doc.itemId, (call) => merged(call.adsConversions));
      else await forms?.().change(domain, doc.itemId, (form) => merged(form.adsConversions));
    }
  };
}
