// The back end's count of calls per local day, by the class of their source and by keyword, campaign
// and landing page (dimensions.ts), kept at every call write in the day's traffic document
// (traffic-days.ts, field `calls`), so the overview
// reads one range of small documents. Like the data API's rollups, a call counts once its outcome is
// known, and a carrier's later report moves it (another day, another status) by exactly the change.
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import type { CallZones } from '../data/call-days.ts';
import { localTime } from '../domains/time-zone.ts';
import { MONTH_CALL_FIELDS } from './dimension-months.ts';
import { DAY_FIELD, DIMENSIONS, keyOf } from './dimensions.ts';
import { addShare, centsOf, PlaceRecount, sameShare, type Share } from './counted-places.ts';
import { creditOf, modelPrefix, TOUCH_MODELS, type Credited, type TouchModel } from './touch-models.ts';
import type { ReportCollections } from './documents.ts';
import { endedAs } from '../telephony/outcome.ts';
import { RECEIVED } from '../telephony/directions.ts';

type Counted = Pick<CallDoc, 'domainId' | 'startedAt' | 'status' | 'outcome' | 'voicemail' | 'abandoned' | 'source' | 'keyword' | 'firstCall' | 'lead' | 'lastTouch' | 'firstTouch' | 'lastNonDirect' | 'verdict' | 'transcript' | 'tags' | 'value' | 'analysis'>;

/** The one name of the source of a call no visit led to, in every report and in the CSV. */
export const UNATTRIBUTED = 'unattributed';

/** The class of a call's source (`organic` of `organic:google.com`); `unattributed` when no visit led to it. */
export function sourceClassOf(source: string | null): string {
  return source ? source.split(':')[0]! : UNATTRIBUTED;
}

/** The counters of `calls` a call adds to (`places`): `total`, `answered`, `src.paid`, `kw.<key>`,
 * `cmp.<key>`, `lp.<key>`, those of the other touch models under their prefix (`firstTouch.src.paid`),
 * all of them again under `new.` for a caller's first call and under `lead.` for a lead; or `blocked`,
 * or `spam`. Ours (rules/): a call with a value adds its cents to the same places under `value.`. */
type CallShare = Share & { domainId: string };

/** Why a call is counted apart, in no figure of calls, answered calls, new callers or leads but its
 * own: its caller is blocked, or a person marked it spam; null when it counts. */
export function countedApart(call: Pick<CallDoc, 'status' | 'verdict'>): 'blocked' | 'spam' | null {
  if (call.status === 'CALLER_PHONE_BLACKLISTED') return 'blocked';
  return call.verdict?.value === 'spam' ? 'spam' : null;
}

function shareOf(call: Counted | null, timeZone: string): CallShare | null {
  if (!call || call.status === null) return null;
  const apart = countedApart(call);
  if (apart) return { domainId: call.domainId, day: localTime(call.startedAt, timeZone).day, places: [apart] };
  const counted = ['total', ...TOUCH_MODELS.flatMap((model) => creditedPlaces(call, model))];
  // How it ended (issue 80): `answered` (as before: its status SUCCESS), and ours `missed`, `abandoned`, `voicemail`.
  const ended = endedAs(call);
  const endedPlaces = call.status === 'SUCCESS' ? ['answered'] : ended && ended !== 'answered' ? [ended] : [];
  const places = [...counted, ...endedPlaces, ...(call.firstCall ? counted.map((place) => `new.${place}`) : []), ...(call.lead ? counted.map((place) => `lead.${place}`) : []), ...labelPlaces(call), ...analysisPlaces(call, counted)];
  const score = call.analysis?.status === 'ready' && call.analysis.leadScore ? { score: { places: counted.map((place) => `score.${place}`), points: call.analysis.leadScore } } : {};
  return { domainId: call.domainId, day: localTime(call.startedAt, timeZone).day, places, ...valued(counted, call.value), ...score };
}

/** Ours (analysis/): an analysed call at the places counted under `analysed.`, again under `booked.`
 * when it booked an appointment and under `sold.` when it made a sale (a person's correction
 * counts); its lead score is summed under `score.` (an average is that over `analysed.`). */
function analysisPlaces(call: Counted, counted: string[]): string[] {
  const a = call.analysis;
  if (a?.status !== 'ready') return [];
  const said = (outcome: string) => a.outcomes?.[outcome]?.answer === 'yes';
  return [...counted.map((place) => `analysed.${place}`), ...(said('appointmentBooked') ? counted.map((place) => `booked.${place}`) : []), ...(said('saleMade') ? counted.map((place) => `sold.${place}`) : [])];
}

/** A value's share (rules/): its cents at each of the places counted, under `value.`. */
export function valued(counted: string[], value: number | null | undefined): Pick<Share, 'value'> {
  return value ? { value: { places: counted.map((place) => `value.${place}`), cents: centsOf(value) } } : {};
}

/** Where a call is counted under each of its labels: the key phrases heard (transcripts/) and its tags (rules/). */
export const LABEL_COUNTERS = { keyPhrases: ['kp', 'kps', 'kpc'], tags: ['tg', 'tgs', 'tgc'] } as const;

/** Ours: a call under each key phrase label heard in it and each of its tags: `kp.<label>` (`tg.<tag>`),
 * and by each touch model's source class (`kps.<label>.<class>`) and campaign (`kpc.<label>.<campaign>`). */
function labelPlaces(call: Counted): string[] {
  const heard = call.transcript?.status === 'ready' ? call.transcript.keyPhrases : [];
  return [...placesOfLabels(call, heard, LABEL_COUNTERS.keyPhrases), ...placesOfLabels(call, call.tags ?? [], LABEL_COUNTERS.tags)];
}

function placesOfLabels(call: Counted, labels: string[], [all, bySource, byCampaign]: readonly [string, string, string]): string[] {
  return labels.flatMap((label) => {
    const k = keyOf(label);
    return [
      `${all}.${k}`,
      ...TOUCH_MODELS.flatMap((model) => {
        const { source, campaign } = creditOf(call, model);
        const p = modelPrefix(model);
        return [`${p}${bySource}.${k}.${sourceClassOf(source)}`, ...(campaign ? [`${p}${byCampaign}.${k}.${keyOf(campaign)}`] : [])];
      }),
    ];
  });
}

/** The source class, keyword, campaign and landing page counters a touch model credits a call or a
 * form submission in. */
export function creditedPlaces(item: Credited, model: TouchModel): string[] {
  const { source, ...values } = creditOf(item, model);
  const prefix = modelPrefix(model);
  return [`${prefix}src.${sourceClassOf(source)}`, ...DIMENSIONS.flatMap((d) => (values[d] ? [`${prefix}${DAY_FIELD[d]}.${keyOf(values[d])}`] : []))];
}

const CALL_MONTH_COUNTS = { '': 'calls', 'new.': 'newCalls', 'lead.': 'leads', 'value.': 'callValueCents', 'analysed.': 'analysedCalls', 'booked.': 'appointments', 'sold.': 'salesMade', 'score.': 'leadScoreSum' };

export class CallSources {
  constructor(private readonly c: ReportCollections & TelephonyCollections) {}

  async record(before: Counted | null, after: Counted, zones: CallZones): Promise<void> {
    const was = before && shareOf(before, zones.before);
    const now = shareOf(after, zones.after);
    if (was && now && sameShare(was, now)) return;
    await Promise.all([was && this.add(was, -1), now && this.add(now, 1)]);
  }

  /** Counts a domain's calls again into its traffic days, after a crash between a call write and its
   * count, or a change of the domain's time zone. */
  async rebuild(domainId: string, timeZone: string): Promise<number> {
    const recount = new PlaceRecount(CALL_MONTH_COUNTS);
    const touchFields = ['source', 'keyword', 'campaign', 'landingUrl'];
    const projection = { domainId: 1, startedAt: 1, status: 1, source: 1, keyword: 1, firstCall: 1, lead: 1, 'verdict.value': 1, 'transcript.status': 1, 'transcript.keyPhrases': 1, tags: 1, value: 1, 'analysis.status': 1, 'analysis.outcomes': 1, 'analysis.leadScore': 1, ...Object.fromEntries(['lastTouch', 'firstTouch', 'lastNonDirect'].flatMap((touch) => touchFields.map((f) => [`${touch}.${f}`, 1]))) };
    for await (const call of this.c.calls.find({ domainId, status: { $ne: null }, ...RECEIVED }, { projection, batchSize: 10_000 })) {
      recount.add(shareOf(call, timeZone)!);
    }
    return recount.write(this.c, domainId, 'calls', MONTH_CALL_FIELDS);
  }

  /** The places of `calls`, and their months' counters: per table, `calls`, `newCalls` for a first
   * call, `leads` for a lead, `callValueCents` for a value, under the touch model's prefix
   * (`cmp.firstTouch.calls.<key>`). */
  private add({ domainId, ...share }: CallShare, sign: 1 | -1): Promise<void> {
    return addShare(this.c, domainId, 'calls', share, sign, CALL_MONTH_COUNTS);
  }
}
