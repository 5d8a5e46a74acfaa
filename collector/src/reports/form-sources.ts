// The back end's count of form submissions per local day (ours): all of them, spam apart, and the
// leads by the class of their source and by keyword, campaign and landing page under each touch
// model, kept at every write of a submission in the day's traffic document (field `forms`) and the
// tables' months (`formLeads`), as call-sources.ts keeps the calls'. A verdict moves a submission
// by exactly the change.
import { localTime } from '../domains/time-zone.ts';
import type { FormDoc, FormCollections } from '../forms/documents.ts';
import { creditedPlaces, valued } from './call-sources.ts';
import { addShare, PlaceRecount, sameShare, type Share } from './counted-places.ts';
import { MONTH_FORM_FIELDS } from './dimension-months.ts';
import { TOUCH_MODELS } from './touch-models.ts';
import type { ReportCollections } from './documents.ts';

export type CountedForm = Pick<FormDoc, 'domainId' | 'submittedAt' | 'spam' | 'lead' | 'source' | 'keyword' | 'lastTouch' | 'firstTouch' | 'lastNonDirect' | 'value'>;

const FORM_MONTH_COUNTS = { 'lead.': 'formLeads', 'value.': 'formValueCents' };

/** The counters of `forms` the submission adds one to: `spam`; or `total`, and for a lead `lead.total`
 * and the places each model credits (`lead.src.paid`, `lead.firstTouch.cmp.<key>`). Ours (rules/): a
 * submission with a value adds its cents to `value.total` and the places credited under `value.`. */
function shareOf(form: CountedForm, timeZone: string): Share {
  const day = localTime(form.submittedAt, timeZone).day;
  if (form.spam) return { day, places: ['spam'] };
  const credited = ['total', ...TOUCH_MODELS.flatMap((model) => creditedPlaces(form, model))];
  const leads = form.lead ? credited.map((place) => `lead.${place}`) : [];
  return { day, places: ['total', ...leads], ...valued(credited, form.value) };
}

export class FormSources {
  constructor(private readonly c: ReportCollections & FormCollections) {}

  async record(before: CountedForm | null, after: CountedForm, timeZone: string): Promise<void> {
    const was = before && shareOf(before, timeZone);
    const now = shareOf(after, timeZone);
    if (was && sameShare(was, now)) return;
    await Promise.all([was && this.add(after.domainId, was, -1), this.add(after.domainId, now, 1)]);
  }

  /** Counts a domain's submissions again (after a change of its time zone). */
  async rebuild(domainId: string, timeZone: string): Promise<void> {
    const recount = new PlaceRecount(FORM_MONTH_COUNTS);
    for await (const form of this.c.forms.find({ domainId }, { projection: { domainId: 1, submittedAt: 1, spam: 1, lead: 1, source: 1, keyword: 1, lastTouch: 1, firstTouch: 1, lastNonDirect: 1, value: 1 }, batchSize: 5000 })) recount.add(shareOf(form, timeZone));
    await recount.write(this.c, domainId, 'forms', MONTH_FORM_FIELDS);
  }

  private add(domainId: string, share: Share, sign: 1 | -1): Promise<void> {
    return addShare(this.c, domainId, 'forms', share, sign, FORM_MONTH_COUNTS);
  }
}
