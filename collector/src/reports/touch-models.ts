// The three ways the overview's source and keyword tables credit a call or a sale (ours): to the
// visit that led to it (last touch, as the data API's `source`), to the visitor's latest visit that
// was not direct (the analytics industry's default), or to their first visit of the 90 days before
// (tracking/touches.ts). Each is counted at write time under a prefix of its own.
import type { Touch } from '../tracking/touches.ts';
import { valuesOf, type DimensionValues } from './dimensions.ts';

export const TOUCH_MODELS = ['last-touch', 'last-non-direct', 'first-touch'] as const;
export type TouchModel = (typeof TOUCH_MODELS)[number];

/** The field of a model's counters in the traffic days' `calls` and `sales` and in the keyword
 * months: last touch's are where they always were (null), the others under a field of their own. */
export const MODEL_FIELD: Record<TouchModel, 'lastNonDirect' | 'firstTouch' | null> = { 'last-touch': null, 'last-non-direct': 'lastNonDirect', 'first-touch': 'firstTouch' };

/** A model's counters' prefix in dotted paths: `firstTouch.`, or nothing for the last touch. */
export const modelPrefix = (model: TouchModel) => (MODEL_FIELD[model] ? `${MODEL_FIELD[model]}.` : '');

type CreditedTouch = Pick<Touch, 'source' | 'keyword' | 'landingUrl' | 'campaign'>;

export interface Credited {
  source: string | null;
  keyword: string | null;
  /** Absent or null on calls and sales stored before touches were kept, and on those no visit led to:
   * every model credits them as the last touch does, with no campaign and no landing page. */
  lastTouch?: CreditedTouch | null;
  firstTouch?: CreditedTouch | null;
  lastNonDirect?: CreditedTouch | null;
}

/** The source label, keyword, campaign and landing page a model credits. */
export function creditOf(item: Credited, model: TouchModel): { source: string | null } & DimensionValues {
  const touch = model === 'first-touch' ? item.firstTouch : model === 'last-non-direct' ? item.lastNonDirect : null;
  if (touch) return { source: touch.source, ...valuesOf(touch) };
  // The last touch's source and keyword are the item's own (an offline number's call has no visit).
  return { source: item.source, ...valuesOf({ keyword: item.keyword, campaign: item.lastTouch?.campaign, landingUrl: item.lastTouch?.landingUrl }) };
}
